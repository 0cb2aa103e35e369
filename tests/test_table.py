"""The table seats every kind of agent: Python agents (asked in batches) play exactly as the
compiled agent they wrap, mixed tables give the same results for any batch size and thread
count, and agents load by import path with clear errors."""

import io
import json
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from agents.base import EngineView
from agents.registry import make_agent
from cardsim import games
from cardsim.barbu.rules import BarbuRules
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import IllegalActionError
from cardsim.table import Seating, Table
from experiments.cli import main
from experiments.tournaments.tournament import tournament


class Wrapped:
    """A Python agent that asks a compiled agent's batched act."""

    def __init__(self, inner):
        self.inner = inner
        self.label = "wrapped-" + inner.label
        self.calls = 0

    def act(self, observations, legal_masks):
        self.calls += 1
        return self.inner.act(observations, legal_masks)


class FirstLegal:
    label = "first-legal"

    def act(self, observations, legal_masks):
        return legal_masks.argmax(axis=1)


CASES = [
    ("debertz", DebertzRules(players=2), False),
    ("debertz", DebertzRules(players=3, seven_swap=False), True),
    ("debertz", DebertzRules(players=4, teams=True, declare="before_play"), False),
    ("barbu", BarbuRules(), False),
    ("barbu", BarbuRules(king_lead_rule="no_hearts"), True),
]


def records(name, rules, agents, whole, n, batch=4096):
    """(statistics, hand-record lines) of a simulation with one agent per seat."""
    game = games.get(name)
    lines = []
    table = Table(name, rules, batch=batch)
    distinct = list({id(a): a for a in agents}.values())
    seating = Seating(distinct, [[distinct.index(a) for a in agents]])
    stats = table.simulate(seating, seed=5, first=3, n=n, whole=whole,
                           history=lambda row: game.record_line(row, rules, 5),
                           write=lines.append)
    return stats, lines


@pytest.mark.parametrize("name, rules, whole", CASES)
def test_a_wrapped_compiled_agent_plays_the_same_hand_records(name, rules, whole):
    n_seats = games.get(name).players(rules)
    heuristic = make_agent("heuristic", name)
    rand = make_agent("random", name)
    direct = [heuristic if s % 2 == 0 else rand for s in range(n_seats)]
    wrapper = Wrapped(heuristic)
    wrapped = [wrapper if s % 2 == 0 else rand for s in range(n_seats)]
    n = 3 if whole else 60
    stats_a, lines_a = records(name, rules, direct, whole, n)
    stats_b, lines_b = records(name, rules, wrapped, whole, n, batch=7)
    assert wrapper.calls > 0
    assert lines_a == lines_b and len(lines_a) >= n
    assert (stats_a == stats_b).all()
    # the random agent wrapped too: its draws come from the same per-game generators
    wrapped_random = Wrapped(rand)
    both = [wrapper if s % 2 == 0 else wrapped_random for s in range(n_seats)]
    stats_c, lines_c = records(name, rules, both, whole, n, batch=11)
    assert lines_c == lines_a and (stats_c == stats_a).all()


@pytest.mark.parametrize("name, rules", [("debertz", DebertzRules(players=2)),
                                         ("debertz", DebertzRules(players=3)),
                                         ("barbu", BarbuRules())])
def test_wrapped_agents_give_the_same_duplicate_results(name, rules):
    kw = dict(deals=150, seed=2)
    direct = tournament(name, rules, ["heuristic", "random"], **kw)
    wrapped = tournament(name, rules, [Wrapped(make_agent("heuristic", name)), "random"], **kw)
    assert wrapped["pairings"][0]["mean_points"] == direct["pairings"][0]["mean_points"]
    assert wrapped["pairings"][0]["difference"] == direct["pairings"][0]["difference"]


@pytest.mark.parametrize("name, rules", [("debertz", DebertzRules(players=2)),
                                         ("debertz", DebertzRules(players=4)),
                                         ("barbu", BarbuRules())])
def test_mixed_tables_do_not_depend_on_batch_or_threads(name, rules):
    seating = Seating([FirstLegal(), make_agent("heuristic", name)],
                      np.array([[0, 1, 0, 1][:games.get(name).players(rules)],
                                [1, 0, 1, 0][:games.get(name).players(rules)]]))
    a = Table(name, rules, batch=4096).duplicate(seating, 1, 0, 40, False, n_threads=1)
    b = Table(name, rules, batch=13).duplicate(seating, 1, 0, 40, False, n_threads=2)
    for x, y in zip(a, b):
        assert np.array_equal(x, y)
    whole = Table(name, rules, batch=5).duplicate(seating, 1, 0, 2, True, n_threads=2)
    assert (whole[2] > 2).all()  # whole games play several deals


def test_a_python_agent_in_a_round_robin_with_ratings():
    result = tournament("debertz", DebertzRules(), [FirstLegal(), "heuristic", "random"],
                        deals=60, seed=1)
    assert [r["agent"] for r in result["agents"]] == ["first-legal", "heuristic", "random"]
    assert len(result["pairings"]) == 3 and result["ratings"]


def test_an_illegal_python_action_names_agent_deal_and_action():
    class Cheat:
        label = "cheat"

        def act(self, observations, legal_masks):
            return np.where(legal_masks[:, 0], 1, 0)  # a card it may well not hold

    with pytest.raises(IllegalActionError, match=r"agent 'cheat' chose action \d+ \(.+\) "
                                                 r"in deal \d+ at seat \d"):
        tournament("debertz", DebertzRules(), [Cheat(), "random"], deals=20)
    with pytest.raises(IllegalActionError, match="must return 3 integer action ids"):
        Table("debertz", DebertzRules(), batch=3).simulate(
            Seating([type("Bad", (), {"act": lambda s, o, m: [0]})()], [[0, 0]]), 0, 0, 3,
            False)


# --- agents by import path --------------------------------------------------------------------
BOTS = '''
import numpy as np

class FirstLegal:
    """Plays the first legal action."""
    def __init__(self, offset=0):
        self.offset = offset
    def act(self, observations, legal_masks):
        return legal_masks.argmax(axis=1)

class Illegal:
    def act(self, observations, legal_masks):
        return np.full(len(legal_masks), 39)

NOT_AN_AGENT = 3

class NoAct:
    pass
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    (tmp_path / "tablebots.py").write_text(textwrap.dedent(BOTS))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "tablebots"
    sys.modules.pop("tablebots", None)


def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_import_path_agents_from_the_command_line(bots):
    code, out, _ = cli("tournament", "debertz", "--agents", f"{bots}:FirstLegal", "heuristic",
                       "--deals", "50", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["agents"][0]["agent"] == f"{bots}:FirstLegal"
    code, out, _ = cli("simulate", "barbu", "--agents", f"{bots}:FirstLegal:offset=2", "random",
                       "heuristic", "random", "--hands", "30", "--json")
    assert code == 0 and json.loads(out)["deals"] == 30


@pytest.mark.parametrize("spec, words", [
    ("nosuchmodule_xyz:Agent", "cannot import module 'nosuchmodule_xyz'"),
    ("{bots}:Missing", "has no 'Missing'"),
    ("{bots}:NOT_AN_AGENT", "neither an agent, a class nor a factory"),
    ("{bots}:NoAct", "has no act"),
    ("{bots}:FirstLegal:depth=3", "does not accept the options"),
    ("{bots}:Illegal", "chose action 39 (keep) in deal 0 at seat"),
])
def test_import_path_errors_are_one_line_and_exit_2(bots, spec, words):
    code, out, err = cli("tournament", "debertz", "--agents", spec.format(bots=bots), "random",
                         "--deals", "10")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err, err


def test_yaml_mapping_specs_load_import_paths(bots):
    agent = make_agent({"name": f"{bots}:FirstLegal", "offset": 1}, "barbu")
    assert agent.offset == 1 and agent.label == f"{bots}:FirstLegal:offset=1"


def test_a_torch_module_sits_at_the_table():
    torch = pytest.importorskip("torch")
    game = games.get("barbu")

    class Net(torch.nn.Module):
        """Scores every action from the observation; plays the best legal one."""

        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.linear = torch.nn.Linear(game.obs_size, game.num_actions)

        def act(self, observations, legal_masks):
            with torch.no_grad():
                scores = self.linear(torch.as_tensor(np.asarray(observations)))
                scores[~torch.as_tensor(legal_masks)] = -torch.inf
                return scores.argmax(dim=1)  # a tensor of action ids

    result = tournament("barbu", BarbuRules(), [Net(), "random"], deals=40, seed=3)
    assert result["agents"][0]["agent"] == "Net" and result["pairings"][0]["items"] == 40


def test_a_table_compiles_the_union_of_its_agents_policy_sets():
    from agents.policies import HEURISTIC_POLICIES, SEARCH_POLICIES
    from cardsim.errors import InvalidConfigError
    from cardsim.policy_nb import RANDOM_POLICIES, CompiledPolicy, PolicySet
    from cardsim.table import RANDOM_AGENT, policy_set_of

    heuristic = make_agent("heuristic", "debertz")
    pimc = make_agent("pimc", "debertz")
    assert policy_set_of([RANDOM_AGENT, None]) == RANDOM_POLICIES
    assert policy_set_of([make_agent("random", "debertz")]) == RANDOM_POLICIES
    assert policy_set_of([RANDOM_AGENT, heuristic]) == HEURISTIC_POLICIES
    assert policy_set_of([heuristic, pimc, make_agent("ismcts", "debertz")]) == SEARCH_POLICIES
    # a policy that claims the heuristic's kind id with other code cannot share its table
    clash = CompiledPolicy.declare(1, "other", {"debertz": "x:y"})
    other = type("Other", (), {"kind": 1, "params": np.zeros(2), "label": "other",
                               "policies": PolicySet(clash)})()
    with pytest.raises(InvalidConfigError, match="share kind 1"):
        Seating([heuristic, other], [[0, 1]])
    from cardsim.envs.selfplay import SelfPlayBatch
    with pytest.raises(InvalidConfigError, match="share kind 1"):
        SelfPlayBatch("debertz", 2, players=3, opponents=[None, heuristic, other])

def test_a_heuristic_table_loads_neither_torch_nor_the_search_code():
    """What a command seats is all it imports: a heuristic tournament's Python side imports
    no torch (seconds and a few hundred MB) and no sampler or solver module."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from experiments import cli\n"
            "from experiments.tournaments import tournament\n"
            "from experiments.runs import run\n"
            "from agents.registry import make_agent\n"
            "from cardsim.table import Seating\n"
            "for game in ('debertz', 'barbu'):\n"
            "    Seating([make_agent('heuristic', game), make_agent('random', game)], [[0, 1]])\n"
            "loaded = [m for m in sys.modules if m.split('.')[0] == 'torch'\n"
            "          or m.endswith(('solve_nb', 'sample_nb', 'pimc_nb', 'ismcts_nb'))]\n"
            "print(loaded)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_a_policy_set_sends_each_kind_to_its_own_policy(game):
    """Kind 0 is random play in every set, drawing as the engine's own set does; kind 1 the
    heuristic (a regression: an inlined dispatch once sent every kind to the first policy)."""
    from agents.policies import HEURISTIC_POLICIES
    from cardsim import game_nb, table_nb
    from cardsim.policy_nb import RANDOM_POLICIES

    g = games.get(game)
    R = g.make_rules().pack()
    S = np.zeros((40, g.layout.STATE_WIDTH), dtype=np.int64)
    for k in range(40):
        game_nb.init_item(g.tag, S[k], R, 7, k, False)
    params = np.zeros(8)
    drawn = {}
    for policies in (RANDOM_POLICIES, HEURISTIC_POLICIES):
        rng = np.array([np.uint64(12345)])
        drawn[policies] = (table_nb.act_states(g.tag, policies, S, R, 0, params, rng), rng[0])
    assert np.array_equal(drawn[RANDOM_POLICIES][0], drawn[HEURISTIC_POLICIES][0])
    assert drawn[RANDOM_POLICIES][1] == drawn[HEURISTIC_POLICIES][1] != 12345
    heuristic = make_agent("heuristic", game)
    rng = np.array([np.uint64(12345)])
    chosen = table_nb.act_states(g.tag, HEURISTIC_POLICIES, S, R, heuristic.kind,
                                 heuristic.params, rng)
    assert np.array_equal(chosen, heuristic.act(EngineView(S, R)))
