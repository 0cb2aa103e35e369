"""experiments.tournaments.seat_swap: one seat's decisions by another agent, paired by deal and
seat, in Barbu and in Debertz."""

import pytest

from cardsim.barbu.actions import CONTRACT_NAMES
from cardsim.barbu.game import BarbuGame
from cardsim.errors import InvalidConfigError
from experiments.tournaments.seat_swap import main, seat_swap


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
    ({"phases": ("contract",)}, r"start_rank \(the contract is forced\), got contract"),
    ({"contract": None, "phases": ("bid",)},
     "phases must be among contract, play, double, trump, start_rank, got bid"),
    ({"deals": 0}, "deals must be a positive integer"),
    ({"tricks": (5, 14)}, "tricks must be FIRST LAST with 1 <= FIRST <= LAST <= 13"),
    ({"game": "poker"}, "unknown game 'poker'; games: barbu, debertz"),
    ({"game": "debertz"}, "contract is Barbu's; Debertz has none to force"),
    ({"game": "debertz", "contract": None, "phases": ("double",)},
     "phases must be among bid, swap, play, got double"),
    ({"game": "debertz", "contract": None, "players": 3, "tricks": (1, 10)},
     "tricks must be FIRST LAST with 1 <= FIRST <= LAST <= 9")])
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


def test_debertz_the_same_agent_in_the_seat_changes_nothing():
    result = seat_swap(None, "heuristic", "heuristic", deals=3, seed=11, game="debertz",
                       players=3)
    assert result["all"]["seats"] == 9 and (result["players"], result["teams"]) == (3, False)
    assert result["bidders"]["seats"] + result["others"]["seats"] == 9
    for key in ("all", "bidders", "others"):
        assert all(result[key][m] == 0 for m in ("tricks", "score", "over_others"))


def test_debertz_phases_tricks_and_the_sides_measures():
    # the last trick (D7: one card left each) leaves nothing to decide
    last = seat_swap(None, "random", "heuristic", phases=("play",), deals=3, game="debertz",
                     players=3, tricks=(9, 9))
    assert last["all"]["score"] == 0 and last["all"]["over_others"] == 0
    # random card play in one seat costs its side tricks and points, more against the others
    loud = seat_swap(None, "random", "heuristic", phases=("play",), deals=8, game="debertz",
                     players=2)
    assert loud["all"]["tricks"] < 0 and loud["all"]["score"] < 0
    assert loud["all"]["over_others"] < loud["all"]["score"]
    # 2 against 2: a side is two seats; the tricks are the side's
    teams = seat_swap(None, "random", "heuristic", phases=("play",), deals=2, game="debertz",
                      players=4, teams=True, tricks=(1, 8))
    assert teams["all"]["seats"] == 8 and teams["teams"]


def test_the_command_studies_debertz(capsys):
    assert main(["--game", "debertz", "--players", "4", "--teams", "--agent", "random",
                 "--phases", "bid", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "debertz 2 against 2: random deciding one seat's bid among heuristic" in out
    assert all(f"  {key}" in out for key in ("all", "bidders", "others"))
    assert "over others" in out


def test_with_the_contracts_chosen_the_deals_are_the_tournaments_single_deals():
    # deal i is item i of `cardsim tournament barbu` (no --by-contract): deal i % 28 of
    # match i // 28, the declarer's earlier contracts drawn, waiting for the choice (B2)
    for item in (0, 9, 27, 61):
        game = BarbuGame.single_deal(item, seed=5)
        assert (game.deal_no, game.game_id, game.phase()) == (item % 28, item // 28,
                                                              "contract")
        assert len(game.contracts_left[game.declarer]) == 7 - item % 7
        assert game.turn() == game.declarer
    with pytest.raises(InvalidConfigError, match="item must be a non-negative integer"):
        BarbuGame.single_deal(-1)


def test_with_the_contracts_chosen_each_contract_the_base_chose_is_reported():
    same = seat_swap(None, "heuristic", "heuristic", deals=4, seed=3)
    assert same["contract"] is None and same["all"]["seats"] == 16
    assert sum(r["seats"] for r in same["contracts"].values()) == 16
    assert all(r["score"] == 0 for r in same["contracts"].values())
    # a random choice of contract: only the declarer's seat decides (the others' seats
    # swapped change nothing), and chooses worse
    choice = seat_swap(None, "random", "heuristic", phases=("contract",), deals=8, seed=3)
    assert choice["others"]["tricks"] == 0 and choice["others"]["score"] == 0
    assert choice["declarer"]["seats"] == 8 and choice["declarer"]["score"] < 0


def test_the_command_without_a_contract_lets_the_declarer_choose(capsys):
    assert main(["--agent", "random", "--phases", "contract", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "barbu, contracts chosen: random deciding one seat's contract" in out
    # a row for each contract the base chose, indented under the groups
    rows = [c for c in CONTRACT_NAMES if f"\n    {c} " in out]
    assert rows and sum(int(out.split(f"\n    {c} ")[1].split()[0]) for c in rows) == 8
