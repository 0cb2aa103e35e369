"""Training by distillation of search (``algorithm: distill``): the solver's labels, the
loss on a fixed problem, and a tiny run of the ready config."""

import numba
import numpy as np
import pytest
import torch

from agents.neural import ActionHeadNet
from agents.registry import make_agent
from cardsim import games, rng_nb
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.rules import DebertzRules
from experiments.train.distill import Distill, DistillArgs
from experiments.train.episodes import Samples
from experiments.train.labels_nb import solver_labels
from tests.experiments.toy_targets import learn_linear_action_values
from tests.search.debertz_positions import positions
from tests.search.test_debertz_solver import brute, solve

TAG = games.get("debertz").tag


def labels_of(states, R, params, samples=0, scale=1.0, seed=5):
    states = np.array(states)
    rng = np.array([rng_nb.stream(seed, g, 0) for g in range(len(states))], dtype=np.uint64)
    return solver_labels(TAG, states, R, np.arange(len(states)), params, samples, scale,
                         rng, 40)


@pytest.mark.parametrize("kw", [dict(players=2), dict(players=3),
                                dict(players=4, teams=True)], ids=str)
def test_labels_are_the_solvers_values_of_every_legal_card(kw):
    rules = DebertzRules(target=100000, **kw)
    tricks = 8 if rules.players == 4 else 9
    R, states = positions(rules, 6, (tricks - 3) * rules.players + 1, seed=3)
    labels = labels_of(states, R, make_agent("pimc", "debertz").params, scale=0.5)
    tt = __import__("cardsim.debertz.solve_nb", fromlist=["new_table"]).new_table(12)
    forced = 0
    for st, row in zip(states, labels):
        side = E.side_of(st[L.TURN], R[L.R_TEAMS])
        values = solve(st, R, side, tt)
        if len(values) == 1:  # one legal card: nothing to learn, no label
            assert np.isnan(row).all()
            forced += 1
            continue
        assert {a for a in range(40) if not np.isnan(row[a])} == set(values)
        assert all(row[c] == 0.5 * v for c, v in values.items())
        # and the solver's values are perfect play's, less what is already won
        exact = {}
        for c in values:
            child = st.copy()
            E.step(child, R, c)
            exact[c] = brute(child, R, side)
        assert len({exact[c] - values[c] for c in values}) == 1
    assert forced < len(states) // 2


def test_no_label_where_the_game_does_not_play_a_card_or_has_one_choice():
    rules = DebertzRules(players=2)
    R = rules.pack()
    st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
    E.init_game(st, R, 1, 0)
    assert st[L.PHASE] != L.PH_PLAY  # bidding
    _, late = positions(rules, 1, 17, seed=2)  # the last card of the deal: one legal card
    assert bin(E.legal_mask(late[0], R)).count("1") == 1
    labels = labels_of([st, late[0]], R, make_agent("pimc", "debertz").params)
    assert np.isnan(labels).all()


def test_sampled_labels_average_drawn_deals_and_repeat_for_their_seed():
    rules = DebertzRules(players=2)
    R, states = positions(rules, 4, 6, seed=4)
    params = make_agent("pimc", "debertz").params
    a = labels_of(states, R, params, samples=8)
    assert np.array_equal(a, labels_of(states, R, params, samples=8), equal_nan=True)
    actual = labels_of(states, R, params)
    assert np.array_equal(np.isnan(a), np.isnan(actual))  # the same cards are labelled
    assert not np.array_equal(a, labels_of(states, R, params, samples=8, seed=6),
                              equal_nan=True)


def test_distill_fits_labels_and_returns():
    # labelled rows: every legal action's Q towards its label; the rest: the played action's
    # Q towards the return. Both are linear in the state here, and the loss falls by far.
    def labelled_half(rng, obs, q):
        legal = rng.random((512, 5)) < 0.6
        legal[:, 0] = True
        a = rng.integers(0, 5, 512)
        labels = np.where(legal, q, np.nan).astype(np.float32)
        labels[256:] = np.nan                      # half the rows have no label
        return Samples(obs, legal, a, q[np.arange(512), a], labels)

    net, losses, obs, q = learn_linear_action_values(
        lambda net: Distill(net, DistillArgs(learning_rate=0.003, batch_size=512),
                            torch.device("cpu")), labelled_half)
    assert np.mean(losses[-20:]) < 0.05 * np.mean(losses[:5])
    with torch.no_grad():
        fitted = net(torch.from_numpy(obs)).numpy()
    assert np.abs(fitted - q).mean() < 0.1 * np.abs(q).mean()


def level_problem(rng, w, shift):
    """A batch whose labels are a linear Q plus a shift common to each row's actions (the
    noise of what the seat cannot see) of scale ``shift``."""
    obs = rng.random((512, 20), dtype=np.float32)
    q = obs @ w
    legal = rng.random((512, 5)) < 0.6
    legal[:, :2] = True
    noise = shift * rng.normal(size=(512, 1)).astype(np.float32)
    labels = np.where(legal, q + noise, np.nan).astype(np.float32)
    return obs, q, legal, Samples(obs, legal, np.zeros(512, dtype=np.int64), q[:, 0], labels)


def centred(values, legal):
    mean = np.where(legal, values, 0).sum(1, keepdims=True) / legal.sum(1, keepdims=True)
    return np.where(legal, values - mean, 0)


def test_level_weight_zero_fits_the_differences_through_a_noisy_level():
    # Each row's labels carry a common shift 30 times the spread of the values: with
    # level_weight 0 the loss ignores it (a shifted batch has the same loss) and the network
    # still learns the differences between the actions; 1 is the plain mean squared error.
    torch.manual_seed(0)
    rng = np.random.default_rng(1)
    w = rng.normal(size=(20, 5)).astype(np.float32)
    net = ActionHeadNet(20, 5, (64,))
    state = {k: v.clone() for k, v in net.state_dict().items()}
    obs, q, legal, s = level_problem(rng, w, 0.0)
    shifted = Samples(s.obs, s.legal, s.action, s.ret, s.extra + 100.0)

    def first_loss(level_weight, samples):
        net.load_state_dict(state)
        return Distill(net, DistillArgs(level_weight=level_weight),
                       torch.device("cpu")).learn(samples)

    assert first_loss(0.0, shifted) == pytest.approx(first_loss(0.0, s), rel=1e-4)
    assert first_loss(1.0, shifted) > 100 * first_loss(0.0, s)   # the level in full at 1
    assert first_loss(0.5, shifted) == pytest.approx(
        (first_loss(1.0, shifted) + first_loss(0.0, shifted)) / 2, rel=1e-4)

    torch.manual_seed(0)
    net = ActionHeadNet(20, 5, (64,))
    algo = Distill(net, DistillArgs(learning_rate=0.003, level_weight=0.0),
                   torch.device("cpu"))
    for _ in range(300):
        obs, q, legal, s = level_problem(rng, w, 30.0)
        algo.learn(s)
    with torch.no_grad():
        fitted = net(torch.from_numpy(obs)).numpy()
    err = np.abs(centred(fitted, legal) - centred(q, legal))[legal].mean()
    assert err < 0.1 * np.abs(centred(q, legal))[legal].mean()


def test_bad_distill_arguments_are_refused(tmp_path):
    import yaml

    from cardsim.errors import InvalidConfigError
    from experiments.train.config import load_config

    with pytest.raises(InvalidConfigError, match="samples must be in 0..4096"):
        DistillArgs(samples=-1).check()
    with pytest.raises(InvalidConfigError, match=r"level_weight must be in \[0, 1\], got 2"):
        DistillArgs(level_weight=2).check()
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(dict(name="t", game="debertz", algorithm="distill",
                                        args={"search": "nodes=-3"})))
    with pytest.raises(InvalidConfigError, match="distill argument 'search'.*nodes"):
        load_config(path)


def test_barbu_labels_only_where_pimc_solves():
    # Barbu's pimc solves trick play once at most ``solve`` tricks are left; earlier tricks
    # (played out by the heuristic) get no label
    from cardsim.barbu import layout as BL
    from cardsim.barbu.rules import BarbuRules
    from tests.search.barbu_positions import barbu_positions

    kit = games.get("barbu")
    rules = BarbuRules()
    for plays, tricks_left in ((8 * 4 + 1, 5), (10 * 4 + 1, 3)):
        R, states = barbu_positions(rules, 6, 0, plays, seed=plays)  # No Tricks
        states = np.array(states)
        assert (13 - states[:, BL.TRICK_NO] == tricks_left).all()
        choices = [bin(kit.kernels.legal(st, R)[1]).count("1") > 1 for st in states]
        assert any(choices)
        for solve in (4, 13):
            params = make_agent(f"pimc:nodes=2000,solve={solve}", "barbu").params
            labels = solver_labels(kit.tag, states, R, np.arange(len(states)), params, 0,
                                   1.0, np.ones(len(states), dtype=np.uint64),
                                   kit.num_actions)
            labelled = (~np.isnan(labels)).any(axis=1).tolist()
            assert labelled == [c and tricks_left <= solve for c in choices]


def first_bids():
    """Packed 2-player rules and four games' first positions: the first bid to make."""
    R = DebertzRules(players=2).pack()
    states = []
    for game in range(4):
        st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        E.init_game(st, R, 11, game)
        states.append(st)
    states = np.array(states)
    assert (states[:, L.PHASE] == L.PH_BID1).all()
    return R, states


def test_rollout_labels_value_each_bid_by_heuristic_play_outs_of_the_deal():
    from agents.debertz.pimc_nb import rollout_value
    from cardsim.game_nb import apply_action

    R, states = first_bids()
    params = make_agent("pimc", "debertz").params
    rng = np.array([rng_nb.stream(5, g, 0) for g in range(len(states))], dtype=np.uint64)
    labels = solver_labels(TAG, states, R, np.arange(len(states)), params, 0, 1.0, rng.copy(),
                           40, rollouts=1)
    assert np.isnan(labels_of(states, R, params)).all()  # no play-outs: no label
    for g, st in enumerate(states):
        mask = E.legal_mask(st, R)
        side = E.side_of(st[L.TURN], R[L.R_TEAMS])
        mine = rng.copy()
        for a in range(40):
            if mask >> a & 1:
                trial = st.copy()
                apply_action(TAG, trial, R, a)
                assert labels[g, a] == rollout_value(trial, R, side, mine, g)
            else:
                assert np.isnan(labels[g, a])


def test_barbu_contract_choice_is_labelled_by_play_outs():
    from cardsim.barbu import layout as BL
    from cardsim.barbu.rules import BarbuRules

    kit = games.get("barbu")
    R = BarbuRules().pack()
    st = np.zeros(BL.STATE_WIDTH, dtype=np.int64)
    kit.kernels.init_item(st, R, 3, 0, False)
    states = st[None, :].copy()
    base, bits = kit.kernels.legal(st, R)
    params = make_agent("pimc", "barbu").params
    for rollouts, labelled in ((0, 0), (2, bin(bits).count("1"))):
        labels = solver_labels(kit.tag, states, R, np.arange(1), params, 0, 1.0,
                               np.ones(1, dtype=np.uint64), kit.num_actions, rollouts)
        assert (~np.isnan(labels[0])).sum() == labelled


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2 or numba.config.DISABLE_JIT,
                    reason="needs two numba threads")
def test_labels_do_not_depend_on_the_thread_count():
    # a run may resume on more threads (debertz-3p did): its labels, and so its network,
    # are those of one thread
    R, states = positions(DebertzRules(players=3, target=100000), 16, 19, seed=9)
    params = make_agent("pimc", "debertz").params
    was = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = labels_of(states, R, params, samples=4)
        numba.set_num_threads(2)
        two = labels_of(states, R, params, samples=4)
    finally:
        numba.set_num_threads(was)
    assert (~np.isnan(one)).sum() > 10
    assert np.array_equal(one, two, equal_nan=True)


def played_out_by(agent, kit, st, R, action, me):
    """``st`` after ``action``, played to the end of its deal by ``agent`` in every seat
    (asked one position at a time, as a game asks it); ``finished_value`` for seat ``me``."""
    from agents.pimc_nb import finished_value
    from cardsim.game_nb import apply_action

    trial = st.copy()
    apply_action(kit.tag, trial, R, action)
    obs = np.zeros((1, kit.obs_size), dtype=np.float32)
    while not kit.kernels.deal_over(trial):
        kit.observer.observe(trial, R, kit.kernels.turn(trial), obs[0])
        base, bits = kit.kernels.legal(trial, R)
        legal = np.zeros((1, kit.num_actions), dtype=np.bool_)
        legal[0, [base + k for k in range(64) if bits >> k & 1]] = True
        apply_action(kit.tag, trial, R, int(agent.act(obs, legal)[0]))
    return finished_value(kit.tag, trial, R, me)


def check_network_labels(game, states, R, params, seed):
    """Labels with ``playouts: network`` are each option's result played out by the network
    (a small random one); returns how many options were checked, and whether the heuristic's
    play-outs would have labelled them otherwise."""
    from agents.neural.agent import NeuralAgent
    from agents.neural.forward_nb import pack_weights

    kit = games.get(game)
    torch.manual_seed(seed)
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (32, 32))
    agent = NeuralAgent(game, net=net)
    rows, ones = np.arange(len(states)), np.ones(len(states), dtype=np.uint64)
    by_net = solver_labels(kit.tag, states, R, rows, params, 0, 0.5, ones.copy(),
                           kit.num_actions, 1, network=pack_weights(net.layer_arrays()))
    by_heuristic = solver_labels(kit.tag, states, R, rows, params, 0, 0.5, ones.copy(),
                                 kit.num_actions, 1)
    checked = 0
    for g, st in enumerate(states):
        base, bits = kit.kernels.legal(st, R)
        if bin(bits).count("1") < 2:
            assert np.isnan(by_net[g]).all()
            continue
        me = kit.kernels.turn(st)
        for b in range(64):
            if bits >> b & 1:
                value = played_out_by(agent, kit, st, R, base + b, me)
                assert by_net[g, base + b] == np.float32(0.5 * value)
                checked += 1
    return checked, not np.array_equal(by_net, by_heuristic, equal_nan=True)


def test_network_play_outs_value_each_early_card_by_the_networks_own_play():
    # playouts: network: a card of Barbu's early tricks (where pimc plays out) is valued by
    # applying it to the actual deal and letting the network play every seat to the end, as
    # the neural agent would choose at each of those positions
    from cardsim.barbu.rules import BarbuRules
    from tests.search.barbu_positions import barbu_positions

    R, states = barbu_positions(BarbuRules(), 4, 0, 2 * 4 + 1, seed=21)  # No Tricks, trick 3
    params = make_agent("pimc", "barbu").params  # solve=4: these tricks are played out
    checked, differs = check_network_labels("barbu", np.array(states), R, params, 22)
    assert checked > 10 and differs


def test_network_play_outs_value_each_debertz_bid_by_the_networks_own_play():
    R, states = first_bids()
    params = make_agent("pimc", "debertz").params
    checked, differs = check_network_labels("debertz", states, R, params, 24)
    assert checked >= 8 and differs


def test_network_all_is_network_in_debertz():
    # Debertz's bids and seven swap are all its decisions not solved: playouts: network-all
    # labels them as playouts: network does
    from agents.neural.forward_nb import pack_weights

    R, states = first_bids()
    kit = games.get("debertz")
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (16,))
    rows, ones = np.arange(len(states)), np.ones(len(states), dtype=np.uint64)
    params = make_agent("pimc", "debertz").params
    packed = pack_weights(net.layer_arrays())
    cards = solver_labels(TAG, states, R, rows, params, 0, 1.0, ones.copy(), 40, 1, network=packed)
    every = solver_labels(TAG, states, R, rows, params, 0, 1.0, ones.copy(), 40, 1, network=packed,
                          every=True)
    assert (~np.isnan(cards)).sum() >= 8
    assert np.array_equal(cards, every, equal_nan=True)


def barbu_domino_decisions(seed):
    """Packed Barbu rules, the first deal's contract choice and, once Domino is chosen and
    played by the heuristic, every decision of more than one option (the doubles, the
    starting rank, Domino's cards)."""
    from agents.barbu.heuristic_nb import DEFAULT_PARAMS, heuristic_action
    from cardsim.barbu import actions as BA
    from cardsim.barbu import layout as BL
    from cardsim.barbu.rules import BarbuRules
    from cardsim.game_nb import apply_action

    kit = games.get("barbu")
    R = BarbuRules().pack()
    st = np.zeros(BL.STATE_WIDTH, dtype=np.int64)
    kit.kernels.init_item(st, R, seed, 0, False)
    contract = st.copy()
    apply_action(kit.tag, st, R, BA.CONTRACT + BA.DOMINO)
    later = []
    while not kit.kernels.deal_over(st):
        base, bits = kit.kernels.legal(st, R)
        if bin(bits).count("1") > 1:
            later.append(st.copy())
        apply_action(kit.tag, st, R, heuristic_action(DEFAULT_PARAMS, st, R, base, bits))
    return R, contract, later


def test_network_all_play_outs_value_domino_and_the_doubles_by_the_networks_own_play():
    # playouts: network-all: the decisions left to heuristic play-outs by playouts: network
    # (Barbu's doubles, Domino's starting rank and cards) are valued by the network's
    # play-outs of the actual deal, exactly as the neural agent plays them on
    from agents.neural.agent import NeuralAgent
    from agents.neural.forward_nb import pack_weights
    from cardsim.barbu import layout as BL

    kit = games.get("barbu")
    R, _, later = barbu_domino_decisions(31)
    phases = {int(st[BL.PHASE]) for st in later}
    assert {BL.PH_DOUBLE, BL.PH_PLAY} <= phases
    states = np.array(later[:4] + later[-4:])  # doubles first, Domino's last cards
    torch.manual_seed(32)
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (32, 32))
    agent = NeuralAgent("barbu", net=net)
    params = make_agent("pimc", "barbu").params
    rows, ones = np.arange(len(states)), np.ones(len(states), dtype=np.uint64)
    packed = pack_weights(net.layer_arrays())
    every = solver_labels(kit.tag, states, R, rows, params, 0, 0.5, ones.copy(),
                          kit.num_actions, 1, network=packed, every=True)
    cards_only = solver_labels(kit.tag, states, R, rows, params, 0, 0.5, ones.copy(),
                               kit.num_actions, 1, network=packed)
    heuristic = solver_labels(kit.tag, states, R, rows, params, 0, 0.5, ones.copy(),
                              kit.num_actions, 1)
    # playouts: network leaves these to the heuristic's play-outs
    assert np.array_equal(cards_only, heuristic, equal_nan=True)
    for g, st in enumerate(states):
        base, bits = kit.kernels.legal(st, R)
        me = kit.kernels.turn(st)
        for b in range(64):
            if bits >> b & 1:
                value = played_out_by(agent, kit, st, R, base + b, me)
                assert every[g, base + b] == np.float32(0.5 * value)
    assert not np.array_equal(every, heuristic, equal_nan=True)


def test_network_all_values_a_contract_less_its_network_play_outs_on_average_hands():
    # B2: a contract is worth its score on this hand less what it would score on a later,
    # average hand: with playouts: network-all both are the network's play-outs, the
    # baseline's mean over ``rollouts`` random deals (drawn from the row's generator)
    from agents.barbu.pimc_nb import random_deal
    from agents.neural.agent import NeuralAgent
    from agents.neural.forward_nb import pack_weights

    kit = games.get("barbu")
    R, contract, _ = barbu_domino_decisions(33)
    states = contract[None, :].copy()
    torch.manual_seed(34)
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (32, 32))
    agent = NeuralAgent("barbu", net=net)
    params = make_agent("pimc", "barbu").params
    rng = np.array([rng_nb.stream(35, 0, 0)], dtype=np.uint64)
    labels = solver_labels(kit.tag, states, R, np.arange(1), params, 0, 1.0, rng.copy(),
                           kit.num_actions, 2, network=pack_weights(net.layer_arrays()), every=True)
    base, bits = kit.kernels.legal(contract, R)
    me = kit.kernels.turn(contract)
    options = [b for b in range(64) if bits >> b & 1]
    assert len(options) == 7
    total = {b: 1.0 * played_out_by(agent, kit, contract, R, base + b, me) for b in options}
    mine, deal = rng.copy(), contract.copy()
    for k in range(2):
        random_deal(contract, mine, 0, deal, np.empty(64, dtype=np.int64))
        assert not np.array_equal(deal, contract)
        for b in options:
            total[b] += -0.5 * played_out_by(agent, kit, deal, R, base + b, me)
    for b in options:
        assert labels[0, base + b] == np.float32(total[b])


def test_network_play_outs_leave_the_solved_tricks_as_they_were():
    from agents.neural.forward_nb import pack_weights
    from cardsim.barbu.rules import BarbuRules
    from tests.search.barbu_positions import barbu_positions

    kit = games.get("barbu")
    R, states = barbu_positions(BarbuRules(), 6, 0, 10 * 4 + 1, seed=23)  # 3 tricks left
    states = np.array(states)
    params = make_agent("pimc:nodes=2000", "barbu").params
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (16,))
    rows, ones = np.arange(len(states)), np.ones(len(states), dtype=np.uint64)
    plain = solver_labels(kit.tag, states, R, rows, params, 0, 1.0, ones, kit.num_actions)
    with_net = solver_labels(kit.tag, states, R, rows, params, 0, 1.0, ones,
                             kit.num_actions, 0, network=pack_weights(net.layer_arrays()))
    assert (~np.isnan(plain)).any()
    assert np.array_equal(plain, with_net, equal_nan=True)


def test_bad_play_out_arguments_are_refused(tmp_path):
    import yaml

    from agents.neural.forward_nb import pack_weights

    from cardsim.errors import InvalidConfigError
    from experiments.train.config import load_config

    with pytest.raises(InvalidConfigError, match="playouts must be one of heuristic, "
                                                 "network, network-all, got 'mcts'"):
        DistillArgs(playouts="mcts").check()
    with pytest.raises(InvalidConfigError, match="needs samples: 0, got 4"):
        DistillArgs(playouts="network", samples=4).check()
    with pytest.raises(InvalidConfigError, match="network-all plays out the actual deal: "
                                                 "it needs samples: 0, got 1"):
        DistillArgs(playouts="network-all", samples=1).check()
    kit = games.get("barbu")
    states = np.zeros((1, 8), dtype=np.int64)  # refused before it is read
    other = ActionHeadNet(kit.obs_size + 1, kit.num_actions, (8,))
    with pytest.raises(ValueError, match=f"maps {kit.obs_size + 1} observation values to "
                                         f"{kit.num_actions} actions; this game has "
                                         f"{kit.obs_size} and {kit.num_actions}"):
        solver_labels(kit.tag, states, None, np.arange(1), None, 0, 1.0, None,
                      kit.num_actions, 1, network=pack_weights(other.layer_arrays()))
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(dict(name="t", game="barbu", algorithm="distill",
                                        args={"playouts": "network", "samples": 2})))
    with pytest.raises(InvalidConfigError, match="needs samples: 0, got 2"):
        load_config(path)


def no_tricks_early_positions():
    """Barbu No Tricks positions at trick 3 (played out by pimc, not solved), the packed
    rules, ``pimc``'s parameters and a small random network's packed weights."""
    from agents.neural.forward_nb import pack_weights
    from cardsim.barbu.rules import BarbuRules
    from tests.search.barbu_positions import barbu_positions

    kit = games.get("barbu")
    R, states = barbu_positions(BarbuRules(), 4, 0, 2 * 4 + 1, seed=21)
    torch.manual_seed(23)
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (32, 32))
    return (kit, R, np.array(states), make_agent("pimc", "barbu").params,
            pack_weights(net.layer_arrays()))


def test_network_play_outs_over_the_heuristic_with_a_margin():
    # prior_margin: the play-outs keep the heuristic's action unless the network's best beats
    # it by the margin; beyond every gap they are the heuristic's own play-outs, at 0 the
    # network's (its best is kept whenever it is not the heuristic's action itself)
    kit, R, states, params, packed = no_tricks_early_positions()
    rows, ones = np.arange(len(states)), np.ones(len(states), dtype=np.uint64)

    def labels(**kw):
        return solver_labels(kit.tag, states, R, rows, params, 0, 0.5, ones.copy(),
                             kit.num_actions, 1, **kw)

    alone = labels(network=packed)
    heuristic = labels()
    assert not np.array_equal(alone, heuristic, equal_nan=True)
    assert np.array_equal(labels(network=packed, prior_margin=1e9), heuristic, equal_nan=True)
    assert np.array_equal(labels(network=packed, prior_margin=0.0), alone, equal_nan=True)
    between = labels(network=packed, prior_margin=0.05)
    assert not np.array_equal(between, alone, equal_nan=True)
    assert not np.array_equal(between, heuristic, equal_nan=True)


def test_a_prior_margin_needs_network_play_outs():
    from cardsim.errors import InvalidConfigError

    DistillArgs(playouts="network-all", prior_margin=1.0).check()
    with pytest.raises(InvalidConfigError, match="prior_margin 1.0 sets the network's "
                                                 "play-outs over the heuristic: it needs "
                                                 "playouts: network or network-all"):
        DistillArgs(prior_margin=1.0).check()
    with pytest.raises(InvalidConfigError, match="prior_margin must be a number of points"):
        DistillArgs(playouts="network", prior_margin="wide").check()


def test_drawn_contracts_are_labelled_as_pimc_values_them():
    # drawn_contracts: in those contracts a card of the tricks not solved gets drawn_rollouts
    # heuristic play-outs, each of a deal drawn from what the seat knows (pimc's valuation,
    # the same labels as samples > 0 with the heuristic's play-outs), whatever plays out
    # elsewhere
    kit, R, states, params, packed = no_tricks_early_positions()
    rows = np.arange(len(states))
    streams = np.array([rng_nb.stream(3, g, 0) for g in rows], dtype=np.uint64)

    def labels(samples, rollouts, **kw):
        return solver_labels(kit.tag, states, R, rows, params, samples, 0.5, streams.copy(),
                             kit.num_actions, rollouts, **kw)

    pimc_like = labels(1, 16)
    assert (~np.isnan(pimc_like)).sum() > 10
    assert not np.array_equal(pimc_like, labels(0, 16), equal_nan=True)  # not the actual deal
    for network in (None, packed):
        drawn = labels(0, 1, network=network, drawn_contracts=("no_tricks",),
                       drawn_rollouts=16)
        assert np.array_equal(drawn, pimc_like, equal_nan=True)
        elsewhere = labels(0, 1, network=network, drawn_contracts=("trumps",),
                           drawn_rollouts=16)
        assert np.array_equal(elsewhere, labels(0, 1, network=network), equal_nan=True)
    # Domino's cards, which pimc values by play-outs of drawn deals too, get the same labels;
    # the contract's other decisions (the doubles, the starting rank) keep theirs unless
    # drawn_phases names them
    from cardsim.barbu import layout as BL

    R2, _, later = barbu_domino_decisions(31)
    domino = np.array(later[:4] + later[-4:])
    phase = np.array([{BL.PH_PLAY: "play", BL.PH_DOUBLE: "double",
                       BL.PH_START_RANK: "start_rank"}[p] for p in domino[:, BL.PHASE]])
    assert set(phase) == {"play", "double", "start_rank"}
    rows2 = np.arange(len(domino))
    streams2 = np.array([rng_nb.stream(5, g, 0) for g in rows2], dtype=np.uint64)

    def domino_labels(samples, rollouts, network=None, **kw):
        return solver_labels(kit.tag, domino, R2, rows2, params, samples, 0.5,
                             streams2.copy(), kit.num_actions, rollouts, network=network,
                             every=network is not None, **kw)

    pimc_like = domino_labels(1, 16)
    for network in (None, packed):
        alone = domino_labels(0, 1, network)
        assert (~np.isnan(alone)).sum() > 8
        for phases in (("play",), ("double", "start_rank"), ("play", "trump", "double")):
            drawn = domino_labels(0, 1, network, drawn_contracts=("domino",),
                                  drawn_rollouts=16, drawn_phases=phases)
            named = np.isin(phase, phases)
            assert np.array_equal(drawn[~named], alone[~named], equal_nan=True)
            assert np.array_equal(drawn[named], pimc_like[named], equal_nan=True)
            assert not np.array_equal(drawn[named], alone[named], equal_nan=True)
    with pytest.raises(ValueError, match="'bid' is not a phase valued by play-outs of drawn "
                                         "deals; the phases: play, double, trump, start_rank"):
        domino_labels(0, 1, drawn_contracts=("domino",), drawn_rollouts=4,
                      drawn_phases=("bid",))
    with pytest.raises(ValueError, match="'no_trick' is not a contract of barbu; its "
                                         "contracts: no_tricks, no_queens"):
        labels(0, 1, drawn_contracts=("no_trick",), drawn_rollouts=4)


def test_drawn_contracts_need_their_play_outs():
    from cardsim.errors import InvalidConfigError

    DistillArgs(drawn_contracts="no_tricks, trumps", drawn_rollouts=64).check()
    assert DistillArgs(drawn_contracts="no_tricks, trumps").contracts() == ("no_tricks",
                                                                          "trumps")
    for kw in (dict(drawn_contracts="trumps"), dict(drawn_rollouts=8),
               dict(drawn_contracts="trumps", drawn_rollouts=5000)):
        with pytest.raises(InvalidConfigError, match="drawn_contracts .* and drawn_rollouts "
                                                     r"\(1..4096\) go together"):
            DistillArgs(**kw).check()


def test_drawn_phases_name_phases_of_the_drawn_contracts():
    from cardsim.errors import InvalidConfigError

    args = DistillArgs(drawn_contracts="domino", drawn_rollouts=64,
                       drawn_phases="play, start_rank")
    args.check()
    assert args.phases() == ("play", "start_rank")
    assert DistillArgs().phases() == ("play",)
    with pytest.raises(InvalidConfigError, match="drawn_phases: 'bid' is not a phase valued "
                                                 "by play-outs of drawn deals; the phases: "
                                                 "play, double, trump, start_rank"):
        DistillArgs(drawn_contracts="domino", drawn_rollouts=64, drawn_phases="play,bid").check()
    for kw in (dict(drawn_phases="double"),
               dict(drawn_contracts="domino", drawn_rollouts=64, drawn_phases=" ")):
        with pytest.raises(InvalidConfigError, match="drawn_phases names the phases"):
            DistillArgs(**kw).check()


def test_drawn_weight_weighs_the_labelled_decisions_of_the_drawn_contracts():
    # drawn_weight w: a labelled decision whose observation shows a drawn contract counts w
    # times in the loss; unlabelled decisions and other contracts count once
    from experiments.train.distill import contract_columns

    kit = games.get("barbu")
    columns = contract_columns(kit, ("no_tricks", "trumps"))
    piece = kit.tag.observer.SPEC.slice("contract")
    assert columns.tolist() == [piece.start + 0, piece.start + 5]
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    obs = rng.random((64, 20), dtype=np.float32)
    obs[:, 3] = rng.random(64) < 0.5                      # column 3: "a drawn contract"
    legal = np.ones((64, 5), dtype=np.bool_)
    labels = rng.normal(size=(64, 5)).astype(np.float32)
    labels[48:] = np.nan                                   # unlabelled rows: returns
    s = Samples(obs, legal, np.zeros(64, dtype=np.int64), np.ones(64, dtype=np.float32),
                labels)
    losses = []
    for weight in (1.0, 4.0):
        torch.manual_seed(1)
        net = ActionHeadNet(20, 5, (16,))
        with torch.no_grad():
            q = net(torch.from_numpy(obs)).numpy()
        algo = Distill(net, DistillArgs(drawn_contracts="no_tricks", drawn_rollouts=8,
                                        drawn_weight=weight), torch.device("cpu"))
        algo.drawn_columns = np.array([3])
        per_row = ((q - labels) ** 2).mean(1)
        per_row[48:] = (q[48:, 0] - 1.0) ** 2
        drawn = (obs[:, 3] > 0) & ~np.isnan(labels).any(1)
        losses.append((algo.learn(s), np.where(drawn, weight * per_row, per_row).mean()))
    for got, expected in losses:
        assert got == pytest.approx(expected, rel=1e-5)
    assert losses[1][0] > losses[0][0]
    from cardsim.errors import InvalidConfigError

    with pytest.raises(InvalidConfigError, match="drawn_contracts: 'no_trick' is not a "
                                                 "contract of barbu"):
        contract_columns(kit, ("no_trick",))
    assert contract_columns(games.get("debertz"), ()).size == 0
    with pytest.raises(InvalidConfigError, match="'trumps' is not a contract of debertz; "
                                                 "its contracts: none"):
        contract_columns(games.get("debertz"), ("trumps",))


def test_other_weight_weighs_every_decision_outside_the_drawn_contracts():
    # other_weight v: every decision but the labelled ones of the drawn contracts (those
    # count drawn_weight w) counts v times, unlabelled ones of those contracts included;
    # v = 0 leaves the others out of the gradient altogether
    torch.manual_seed(0)
    rng = np.random.default_rng(1)
    obs = rng.random((64, 20), dtype=np.float32)
    obs[:, 3] = rng.random(64) < 0.5
    labels = rng.normal(size=(64, 5)).astype(np.float32)
    labels[40:] = np.nan
    s = Samples(obs, np.ones((64, 5), dtype=np.bool_), np.zeros(64, dtype=np.int64),
                np.ones(64, dtype=np.float32), labels)
    drawn = obs[:, 3] > 0
    for w, v in ((1.0, 0.5), (3.0, 0.0)):
        torch.manual_seed(1)
        net = ActionHeadNet(20, 5, (16,))
        with torch.no_grad():
            q = net(torch.from_numpy(obs)).numpy()
        algo = Distill(net, DistillArgs(drawn_contracts="no_tricks", drawn_rollouts=8,
                                        drawn_weight=w, other_weight=v), torch.device("cpu"))
        algo.drawn_columns = np.array([3])
        per_row = ((q - labels) ** 2).mean(1)
        per_row[40:] = (q[40:, 0] - 1.0) ** 2
        weight = np.where(drawn & (np.arange(64) < 40), w, v)
        before = [p.detach().clone() for p in net.parameters()]
        assert algo.learn(s) == pytest.approx((weight * per_row).mean(), rel=1e-5)
        if v == 0.0:  # the others alone: no gradient, the network unmoved
            torch.manual_seed(1)
            net = ActionHeadNet(20, 5, (16,))
            algo = Distill(net, DistillArgs(drawn_contracts="no_tricks", drawn_rollouts=8,
                                            other_weight=0.0), torch.device("cpu"))
            algo.drawn_columns = np.array([3])
            keep = ~drawn | (np.arange(64) >= 40)              # the others, the returns
            assert keep.any() and (drawn & keep).any()
            algo.learn(Samples(*(x[keep] for x in s)))
            assert all(torch.equal(a, b) for a, b in zip(before, net.parameters()))
    from cardsim.errors import InvalidConfigError

    DistillArgs(drawn_contracts="trumps", drawn_rollouts=8, other_weight=0.0).check()
    for kw in (dict(other_weight=0.5), dict(drawn_contracts="trumps", drawn_rollouts=8,
                                            other_weight=1.5)):
        with pytest.raises(InvalidConfigError, match="other_weight must be in"):
            DistillArgs(**kw).check()


def test_a_drawn_weight_needs_drawn_contracts():
    from cardsim.errors import InvalidConfigError

    DistillArgs(drawn_contracts="trumps", drawn_rollouts=8, drawn_weight=10.0).check()
    for kw in (dict(drawn_weight=2.0), dict(drawn_contracts="trumps", drawn_rollouts=8,
                                            drawn_weight=0.0)):
        with pytest.raises(InvalidConfigError, match="drawn_weight must be in"):
            DistillArgs(**kw).check()
