"""pimc drawing its deals by a belief network (``pimc:beliefs=NAME``): the resampling, where
cards really lie, beliefs that cannot leak a hidden card, deals that follow the beliefs,
legal play in every phase of both games, and results that repeat for their seed."""

import numpy as np
import pytest
import torch

from agents.belief_pimc_nb import (
    SeatKnowledge,
    belief_search,
    draw_weighted,
    kept_deals,
    new_candidates,
    resample_counts,
    sampler_log_chances,
)
from agents.neural.beliefs import PLACES, load_beliefs, output_size, true_places
from agents.neural.checkpoint import checkpoint_bytes
from agents.neural.network import ActionHeadNet
from agents.registry import make_agent
from cardsim import games, rng_nb
from cardsim.barbu.rules import BarbuRules
from cardsim.deal_split_nb import KN_HOLDER, KN_HOLDERS
from cardsim.debertz import layout as L
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import CheckpointError, InvalidConfigError
from cardsim.sample_nb import sample_prepare
from experiments.tournaments.tournament import Tournament
from tests.agents.spec_errors import assert_spec_refused
from tests.search.debertz_positions import positions


def belief_file(tmp_path, game, rules, hidden=(16,), seed=0):
    """An untrained belief network's checkpoint (its beliefs are arbitrary, not uniform)."""
    torch.manual_seed(seed)
    net = ActionHeadNet(games.get(game).obs_size, output_size(games.get(game)), hidden)
    path = tmp_path / f"{game}-beliefs.pt"
    path.write_bytes(checkpoint_bytes(net, game, rules, "beliefs"))
    return path


def player_file(tmp_path, game, rules, seed=0):
    """An untrained playing network's checkpoint (its greedy cards are arbitrary)."""
    torch.manual_seed(seed)
    g = games.get(game)
    path = tmp_path / f"{game}-player.pt"
    path.write_bytes(checkpoint_bytes(ActionHeadNet(g.obs_size, g.num_actions, (16,)), game,
                                      rules, "dmc"))
    return path


def test_systematic_resampling_keeps_each_candidate_floor_or_ceil_of_its_share():
    weights = np.array([0.5, 0.0, 2.0, 1.0, 0.5])
    counts = np.zeros(5, dtype=np.int64)
    for u in (0.0, 0.3, 0.77, 0.999):
        resample_counts(weights, 5, 16, u, counts)
        assert counts.sum() == 16
        share = 16 * weights / weights.sum()
        assert (counts >= np.floor(share)).all() and (counts <= np.ceil(share)).all()
        assert counts[1] == 0  # a deal of weight 0 is never kept
    resample_counts(np.ones(8), 8, 8, 0.5, counts := np.zeros(8, dtype=np.int64))
    assert (counts == 1).all()  # equal weights: every candidate once (plain pimc's draws)


def test_true_places_of_a_debertz_and_a_barbu_deal():
    rules = DebertzRules(players=2)
    R, states = positions(rules, 2, 5, seed=1)
    places = true_places(games.get("debertz"), states, 2)
    for st, row in zip(states, places):
        me = st[L.TURN]
        for c in range(32):
            if (st[L.HANDS + me] | st[L.PLAYED]) >> c & 1:
                assert row[c] == -1
            elif st[L.HANDS + 1 - me] >> c & 1:
                assert row[c] == 1
            else:
                assert row[c] == 0  # the dead stock
    from cardsim.barbu import engine_nb as BE
    from cardsim.barbu import layout as BL

    R = BarbuRules().pack()
    st = np.zeros(BL.STATE_WIDTH, dtype=np.int64)
    BE.init_game(st, R, 3, 0)
    row = true_places(games.get("barbu"), st[None], 4)[0]
    me = st[BL.TURN]
    for k in range(1, 4):
        hand = st[BL.HANDS + (me + k) % 4]
        assert {c for c in range(52) if hand >> c & 1} == set(np.flatnonzero(row == k))
    assert (row == -1).sum() == 13 and (row == 0).sum() == 0


def test_beliefs_are_distributions_and_never_see_a_hidden_card(tmp_path):
    """Two deals that differ only in cards the seat cannot see (one of the other hand's
    cards swapped with one of the dead stock) give the same observation, hence the same
    beliefs; each card's chances over the places sum to 1."""
    rules = DebertzRules(players=2)
    R, states = positions(rules, 3, 7, seed=2)
    beliefs = load_beliefs(str(belief_file(tmp_path, "debertz", rules)), rules.game)
    kit = games.get("debertz")
    for st in states:
        me = st[L.TURN]
        other = st[L.HANDS + 1 - me]
        known = 1 << st[L.TURNUP] | 1 << (st[L.TRUMP] * 8)  # the turn-up, the 7 of trump
        stock = st[L.DEAD] & ~known
        a, b = int(other & -other), int(stock & -stock)
        twin = st.copy()
        for field in (L.HANDS, L.PLAY_HANDS, L.DEALT, L.EXTRA):  # every record of the hand
            if twin[field + 1 - me] & a:
                twin[field + 1 - me] = twin[field + 1 - me] & ~a | b
        twin[L.DEAD] = (st[L.DEAD] & ~b) | a
        assert not np.array_equal(true_places(kit, np.stack([st, twin]), 2)[0],
                                  true_places(kit, np.stack([st, twin]), 2)[1])
        obs = np.zeros((2, kit.obs_size), dtype=np.float32)
        for row, s in zip(obs, (st, twin)):
            kit.observer.observe(s, R, me, row)
        assert np.array_equal(obs[0], obs[1])
        logp = beliefs.log_places(obs)
        assert logp.shape == (2, 64, PLACES)
        assert np.array_equal(logp[0], logp[1])
        assert np.allclose(np.exp(logp[:, :32]).sum(axis=-1), 1.0)


def test_kept_deals_follow_the_beliefs():
    """A belief sure that one unseen card is in the other hand keeps only deals that put it
    there; with beta 0 the same draws are all kept alike."""
    rules = DebertzRules(players=2)
    R, states = positions(rules, 1, 6, seed=5)
    st = states[0]
    tag = games.get("debertz").tag
    me = int(st[L.TURN])
    kn, ways = sample_prepare(tag, st, R, me)
    n = 64
    opponent = next(h for h in range(kn[KN_HOLDERS]) if kn[KN_HOLDER + h] == 1 - me)

    def kept(logp, beta, ratio=False):
        cand = new_candidates(n)  # 4 draws for each of 16 deals kept
        rng = np.array([rng_nb.stream(7, 0, 0)], dtype=np.uint64)
        search = belief_search(np.zeros(1), 4, beta, ratio)
        m = kept_deals(tag, st, R, SeatKnowledge(me, kn, ways), logp, search, 16, rng, 0, cand)
        assert m == n and cand.counts.sum() == 16
        return [cand.helds[k, opponent] for k in range(m) if cand.counts[k]]

    even = np.full((64, PLACES), np.log(0.5))
    hands = kept(even, 0.0)
    # a card the uniform draws put now in the other hand, now in the stock
    card = next(c for c in range(32) if 0 < sum(h >> c & 1 for h in hands) < len(hands))
    sure = even.copy()
    sure[card] = [np.log(1e-12), 0.0, np.log(1e-12), np.log(1e-12)]
    assert all(h >> card & 1 for h in kept(sure, 1.0))
    assert all(h >> card & 1 for h in kept(sure, 1.0, ratio=True))
    assert kept(sure, 0.0) == hands  # beta 0: the beliefs are not used


def test_beliefs_over_the_samplers_own_chances_weigh_nothing_twice():
    """With ``ratio``, beliefs equal to how often the draws put each card in each place
    (the hard constraints' own chances) add nothing: every draw weighs the same. Without
    it, the same beliefs favour some draws over others."""
    rules = BarbuRules()
    from experiments.bench.search import barbu_positions

    R, states = barbu_positions(rules, 1, 3, 9, seed=2)  # a void or two shown
    st = states[0]
    tag = games.get("barbu").tag
    me = int(st[L.TURN])
    kn, ways = sample_prepare(tag, st, R, me)
    n = 200

    def draw(logp, ratio):
        cand = new_candidates(n)
        rng = np.array([rng_nb.stream(3, 0, 0)], dtype=np.uint64)
        search = belief_search(np.zeros(1), 1, 1.0, ratio)
        m = draw_weighted(tag, st, R, SeatKnowledge(me, kn, ways), logp, search, rng, 0, cand)
        assert m == n
        return cand.helds, cand.weights

    helds, _ = draw(np.zeros((64, PLACES)), False)
    own = sampler_log_chances(kn, helds, n, me, 4)
    hidden = [c for c in range(52) if int(np.bitwise_or.reduce(helds[0])) >> c & 1]
    assert len(hidden) > 20
    assert np.allclose(np.exp(own[hidden, 1:]).sum(axis=1), 1.0, atol=0.02)
    assert np.allclose(draw(own, True)[1], 1.0)
    assert draw(own, False)[1].min() < 0.5


def test_the_samplers_chances_of_each_row_and_a_network_learnt_over_them(tmp_path):
    """``sampler_chance_rows``: for every card the seat cannot see, chances over the places
    that sum to one, next to nothing where a shown void forbids it; a belief network
    trained with ``prior: sampler`` gives its raw logits (the factor over those chances),
    and refuses ``ratio`` (it would divide by them twice)."""
    from agents.belief_pimc_nb import sampler_chance_rows
    from cardsim.barbu import layout as BL
    from experiments.bench.search import barbu_positions

    rules = BarbuRules()
    R, states = barbu_positions(rules, 8, 3, 20, seed=4)  # no hearts, sixth trick
    states = np.array(states)
    out = np.zeros((len(states), 64, PLACES))
    rng = np.array([rng_nb.stream(1, g, 0) for g in range(len(states))], dtype=np.uint64)
    sampler_chance_rows(games.get("barbu").tag, states, R, 200, rng, out)
    voids_seen = 0
    for g, st in enumerate(states):
        me = int(st[BL.TURN])
        for c in range(52):
            place = next((k for k in (1, 2, 3) if st[BL.HANDS + (me + k) % 4] >> c & 1),
                         None)
            if place is None:
                continue
            chances = np.exp(out[g, c, 1:])
            assert abs(chances.sum() - 1.0) < 0.02
            assert chances[place - 1] > 0.002  # where it really is: never ruled out
            voids_seen += int((chances < 0.003).sum())
    assert voids_seen > 0  # some places ruled out by a shown void

    torch.manual_seed(0)
    barbu = games.get("barbu")
    net = ActionHeadNet(barbu.obs_size, output_size(barbu), (16,))
    config = {"args": {"prior": "sampler"}}
    path = tmp_path / "over.pt"
    path.write_bytes(checkpoint_bytes(net, "barbu", rules, "beliefs", {"config": config}))
    beliefs = load_beliefs(str(path), barbu)
    obs = np.random.default_rng(0).random((2, games.get("barbu").obs_size), dtype=np.float32)
    raw = net(torch.from_numpy(obs)).detach().numpy().reshape(2, 52, PLACES)
    assert beliefs.prior == "sampler"
    assert np.allclose(beliefs.log_places(obs)[:, :52], raw, atol=1e-5)
    with pytest.raises(InvalidConfigError, match="ratio"):
        make_agent(f"pimc:beliefs={path},ratio=1", "barbu")
    make_agent(f"pimc:beliefs={path}", "barbu")


def even_and_skewed_beliefs(n):
    """Barbu beliefs for ``n`` positions: every hidden card evenly among the three other
    seats, and every card c nearly surely c % 3 + 1 seats on."""
    even = np.full((n, 64, PLACES), np.log(1 / 3))
    even[..., 0] = np.log(1e-12)
    skewed = even.copy()
    for c in range(52):
        skewed[:, c, 1:] = np.log(1e-6)
        skewed[:, c, c % 3 + 1] = 0.0
    return even, skewed


def assert_skewed_beliefs_change_some_actions(states, R, params):
    """Barbu's actions for ``states`` by belief-drawn deals: beliefs that each hidden card
    lies with one chosen seat give the same actions twice, and other actions than even
    beliefs somewhere."""
    from agents.belief_pimc_nb import belief_actions

    rows = np.arange(len(states))
    even, skewed = even_and_skewed_beliefs(len(states))
    tag = games.get("barbu").tag

    def act(logp):
        rng = np.array([rng_nb.stream(9, g, 0) for g in rows], dtype=np.uint64)
        return belief_actions(tag, states, R, rows, params, logp, 4, 1.0, rng)

    assert np.array_equal(act(skewed), act(skewed))
    assert not np.array_equal(act(even), act(skewed))


def test_barbu_early_tricks_draw_their_play_outs_by_the_beliefs():
    """Barbu's early tricks are valued by play-outs, not solves: their deals follow the
    beliefs too. Beliefs that each hidden card lies with one chosen seat change some cards
    against even beliefs; the same beliefs give the same cards."""
    from agents.barbu.pimc_nb import plays_out_cards
    from experiments.bench.search import barbu_positions

    rules = BarbuRules()
    R, states = barbu_positions(rules, 12, 0, 5, seed=3)  # no tricks, second trick
    states = np.array(states)
    params = make_agent("pimc:rollouts=24,margin=0", "barbu").params
    assert all(plays_out_cards(st, R, params) for st in states)
    assert_skewed_beliefs_change_some_actions(states, R, params)


@pytest.mark.parametrize("game", ["debertz", "barbu"])
@pytest.mark.parametrize("guides", ["beliefs", "net", "beliefs+net", "net+endgame"])
def test_legal_play_in_every_phase_and_the_same_results_for_the_seed(game, guides, tmp_path):
    """Seated at the table (which refuses an illegal action) for every phase: Debertz bids,
    the seven swap and card play; Barbu's seven contracts (by_contract), doubling, trump and
    Domino; guided by a belief network, a playing network (``net=``) or both. A second run
    with another thread count gives the same results."""
    rules = DebertzRules(players=2) if game == "debertz" else BarbuRules()
    quick = "samples=2,rollouts=2" + (",nodes=300" if game == "barbu" else "")
    spec = f"pimc:{quick}"
    if "beliefs" in guides:
        spec += f",beliefs={belief_file(tmp_path, game, rules)},draws=3"
    if "net" in guides:
        spec += f",net={player_file(tmp_path, game, rules)}"
    if "endgame" in guides:
        spec += ",endgame=3"
    agent = make_agent(spec, game)
    assert agent.label.startswith("pimc:")
    assert ("beliefs=" in agent.label) == ("beliefs" in guides)
    assert ("net=" in agent.label) == ("net" in guides)
    kw = {"deals": 7, "seed": 11, "by_contract": True} if game == "barbu" else {"deals": 6, "seed": 11}
    runs = [Tournament(game, rules, [spec, "heuristic"], **kw).run(n_threads=t)
            for t in (1, 2)]
    assert runs[0]["pairings"] == runs[1]["pairings"]


def test_bad_belief_options_are_clear_errors(tmp_path):
    rules = DebertzRules(players=2)
    path = belief_file(tmp_path, "debertz", rules)
    assert_spec_refused(f"pimc:beliefs={path},beta=-1", "debertz", "beta")
    assert_spec_refused(f"pimc:beliefs={path},samples=0", "debertz", "samples")
    assert_spec_refused(f"neural:checkpoint={path}", "debertz",
                        "belief network, which does not play")
    player = tmp_path / "player.pt"
    player.write_bytes(checkpoint_bytes(
        ActionHeadNet(games.get("debertz").obs_size, 40, (8,)), "debertz", rules, "dmc"))
    assert_spec_refused(f"pimc:beliefs={player}", "debertz",
                        "not a belief network", CheckpointError)
    with pytest.raises(CheckpointError, match="other rules"):
        make_agent(f"pimc:beliefs={path}", "debertz").check_rules(DebertzRules(players=3))


def test_a_networks_card_is_barbus_reference_card():
    """``pimc:net=``: the gains of Barbu's early tricks are measured against the network's
    card, not the heuristic's; with a margin no gain beats, the network's card is played."""
    from agents.belief_pimc_nb import belief_actions
    from cardsim.barbu.engine_nb import legal_mask
    from experiments.bench.search import barbu_positions

    rules = BarbuRules()
    R, states = barbu_positions(rules, 12, 0, 5, seed=3)
    states = np.array(states)
    params = make_agent("pimc:rollouts=8,margin=100", "barbu").params
    rows = np.arange(len(states))
    tag = games.get("barbu").tag
    logp = np.zeros((len(states), 64, PLACES))
    rng = np.array([rng_nb.stream(9, g, 0) for g in rows], dtype=np.uint64)
    plain = belief_actions(tag, states, R, rows, params, logp, 1, 0.0, rng.copy())
    refs = np.empty(len(states), dtype=np.int64)
    for j, st in enumerate(states):  # each row's last legal card: not the heuristic's
        base, bits = legal_mask(st, R)
        refs[j] = base + int(bits).bit_length() - 1
    guided = belief_actions(tag, states, R, rows, params, logp, 1, 0.0, rng.copy(), refs=refs)
    assert np.array_equal(guided, refs)
    assert not np.array_equal(plain, refs)


def test_debertz_ties_go_to_the_reference_card():
    from agents.debertz.pimc_nb import card_choice

    params = np.zeros(16)
    total = np.zeros(64)
    total[[3, 5, 9]] = [10.0, 10.0, 4.0]
    bits = 1 << 3 | 1 << 5 | 1 << 9
    squares = np.zeros(64)
    assert card_choice(total, squares, 1, bits, -1, params) == 3  # the lowest id
    assert card_choice(total, squares, 1, bits, 5, params) == 5   # the reference among equals
    assert card_choice(total, squares, 1, bits, 9, params) == 3   # never a worse card
    assert total[9] == 4.0 and total[5] == 10.0                  # totals left as they were


def test_bad_network_options_are_clear_errors(tmp_path):
    rules = DebertzRules(players=2)
    beliefs = belief_file(tmp_path, "debertz", rules)
    assert_spec_refused(f"pimc:net={beliefs}", "debertz", "belief network, which does not play")
    with pytest.raises(CheckpointError, match="other rules"):
        make_agent(f"pimc:net={player_file(tmp_path, 'debertz', rules)}",
                   "debertz").check_rules(DebertzRules(players=3))
    # no beliefs: nothing to weigh
    assert_spec_refused(f"pimc:net={player_file(tmp_path, 'debertz', rules)},beta=1", "debertz",
                        "beta")


def seated_positions(game, rules, deals, seed):
    """Every decision of ``deals`` deals of random play as a table hands them to a Python
    agent (``Observations`` with their engine rows, one generator per row) and their legal
    masks."""
    from experiments.tournaments.strength_cost import decision_positions

    R = rules.pack()
    states = np.array(decision_positions(rules.game, R, deals, seed))
    return (states, R) + seated(game, R, states)


def seated(game, R, states):
    """``states`` as a table hands them to a Python agent: a function giving their
    ``Observations`` with their engine rows (one fresh generator per row), and their legal
    masks."""
    from cardsim.table import EngineRows, Observations
    from experiments.tournaments.strength_cost import observed_positions

    kit = games.get(game)
    obs, legal = observed_positions(kit, R, states)

    def seen():  # fresh generators each time: every call draws the same deals
        rng = np.array([rng_nb.stream(5, i, 0) for i in range(len(states))], dtype=np.uint64)
        view = obs.view(Observations)
        view.engine = EngineRows(kit.tag, states, R, rng, np.arange(len(states)))
        return view

    return seen, legal


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_endgame_searches_the_last_tricks_alone_and_the_network_plays_the_rest(
        game, tmp_path, monkeypatch):
    """``pimc:net=NAME,endgame=3``: where card play has more than 3 tricks left, and in every
    other phase, the network's action; in the last 3 tricks ``pimc:net=NAME``'s own (the
    search, the network's card as its reference). The one compiled call gives the actions
    of the Python path it replaces (taken where the network has no compiled forward)."""
    from agents.belief_pimc_nb import in_endgame
    from agents.neural.agent import NeuralAgent

    rules = DebertzRules(players=3) if game == "debertz" else BarbuRules()
    quick = "samples=3,rollouts=2" + (",nodes=300" if game == "barbu" else "")
    net = player_file(tmp_path, game, rules)
    states, R, seen, legal = seated_positions(game, rules, 4, 21)
    spec = f"pimc:{quick},net={net},endgame=3"
    agent = make_agent(spec, game)
    assert agent.label.endswith(f",net={net},endgame=3")
    one_call = agent.act(seen(), legal)
    networks = agent.net.act(seen(), legal)
    searched = make_agent(f"pimc:{quick},net={net}", game).act(seen(), legal)
    late = np.array([in_endgame(games.get(game).tag, st, R, 3) for st in states])
    assert late.sum() >= 5 and (~late).sum() >= 20
    assert np.array_equal(one_call[~late], networks[~late])
    assert np.array_equal(one_call[late], searched[late])
    assert not np.array_equal(one_call[late], networks[late])  # the search decides there
    monkeypatch.setattr(NeuralAgent, "packed_single", lambda self: None)
    python_path = make_agent(spec, game)
    assert python_path._one_call is None
    assert np.array_equal(python_path.act(seen(), legal), one_call)


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_endgame_asks_the_belief_network_about_the_searched_rows_alone(
        game, tmp_path, monkeypatch):
    """``pimc:beliefs=B,net=NAME,endgame=3``: the belief network's forward runs on the rows
    the search takes (the last 3 tricks) and no other; the actions are those of the search
    weighing every row's draws by its beliefs, the network's elsewhere."""
    from agents.belief_pimc_nb import belief_search, endgame_actions, in_endgame
    from agents.neural.beliefs import Beliefs

    rules = DebertzRules(players=3) if game == "debertz" else BarbuRules()
    quick = "samples=3,rollouts=2" + (",nodes=300" if game == "barbu" else "")
    net = player_file(tmp_path, game, rules)
    beliefs = belief_file(tmp_path, game, rules)
    states, R, seen, legal = seated_positions(game, rules, 4, 21)
    agent = make_agent(f"pimc:{quick},beliefs={beliefs},draws=3,net={net},endgame=3", game)
    asked = []
    log_places = Beliefs.log_places
    monkeypatch.setattr(Beliefs, "log_places",
                        lambda self, obs: asked.append(len(obs)) or log_places(self, obs))
    actions = agent.act(seen(), legal)
    late = np.array([in_endgame(games.get(game).tag, st, R, 3) for st in states])
    assert late.sum() >= 5 and (~late).sum() >= 20
    assert asked == [late.sum()]
    view = seen()
    search = belief_search(agent.search.params, 3, 1.0, False, 3, agent._searched,
                           agent._table)
    everywhere = endgame_actions(view.engine.game, states, R, view.engine.rows,
                                 agent.net.act(view, legal),
                                 log_places(agent.beliefs, np.asarray(view)), search,
                                 view.engine.rng)
    assert np.array_equal(actions, everywhere)
    assert not np.array_equal(actions[late], agent.net.act(seen(), legal)[late])


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_the_network_takes_its_own_options(game, tmp_path, monkeypatch):
    """``net_OPTION=V`` seats the network as ``neural:checkpoint=NAME,OPTION=V``: with the
    heuristic as its prior and a margin no value beats it plays the heuristic's actions,
    and so does the agent wherever ``endgame`` leaves the decision to it."""
    from agents.belief_pimc_nb import in_endgame
    from agents.neural.agent import NeuralAgent

    rules = DebertzRules(players=3) if game == "debertz" else BarbuRules()
    quick = "samples=3,rollouts=2" + (",nodes=300" if game == "barbu" else "")
    net = player_file(tmp_path, game, rules)
    states, R, seen, legal = seated_positions(game, rules, 3, 22)
    spec = f"pimc:{quick},net={net},net_prior=heuristic,net_margin=M,endgame=2"
    agent = make_agent(spec.replace("M", "1000"), game)
    assert agent.label.endswith(f",net={net},net_margin=1000,net_prior=heuristic,endgame=2")
    assert agent.net.label.endswith("prior=heuristic,margin=1000")
    heuristic = make_agent("heuristic", game).act(seen(), legal)
    actions = agent.act(seen(), legal)
    late = np.array([in_endgame(games.get(game).tag, st, R, 2) for st in states])
    assert late.any() and np.array_equal(actions[~late], heuristic[~late])
    # the critic and the search in one compiled call, as the Python path plays them
    one_call = {m: make_agent(spec.replace("M", m), game) for m in ("1000", "0")}
    assert all(a._one_call is not None for a in one_call.values())
    played = {m: a.act(seen(), legal) for m, a in one_call.items()}
    assert not np.array_equal(played["0"], played["1000"])  # the network decides somewhere
    monkeypatch.setattr(NeuralAgent, "critic_parts", lambda self: None)
    for m, actions in played.items():
        python_path = make_agent(spec.replace("M", m), game)
        assert python_path._one_call is None
        assert np.array_equal(python_path.act(seen(), legal), actions)


def test_endgame_needs_a_network(tmp_path):
    with pytest.raises(InvalidConfigError, match="endgame= leaves every decision.*net=NAME"):
        make_agent("pimc:endgame=3", "debertz")
    with pytest.raises(InvalidConfigError, match="endgame"):
        make_agent(f"pimc:net={player_file(tmp_path, 'debertz', DebertzRules())},endgame=14",
                   "debertz")
    with pytest.raises(InvalidConfigError, match="net_prior= is an option of the playing "
                                                 "network: give net=NAME too"):
        make_agent("pimc:net_prior=heuristic", "debertz")
    with pytest.raises(InvalidConfigError, match="'neural' has no option 'bogus'"):
        make_agent(f"pimc:net={player_file(tmp_path, 'debertz', DebertzRules())},net_bogus=1",
                   "debertz")


def test_search_takes_the_named_phases_of_the_named_contracts(tmp_path, monkeypatch):
    """``search=start_rank+double,search_in=domino``: Domino's starting rank (B5) and its
    doubles (B6) decided as ``pimc:net=NAME`` decides them, by its play-outs (the starting
    rank among the ranks the declarer holds); the doubles of another contract and all card
    play by the network. The one compiled call gives the
    actions of the Python path it replaces."""
    from agents.neural.agent import NeuralAgent
    from cardsim.barbu import actions as BA
    from cardsim.barbu import layout as BL

    rules = BarbuRules()
    quick = "samples=2,rollouts=6,nodes=300"
    net = player_file(tmp_path, "barbu", rules)
    domino = BA.CONTRACT_NAMES.index("domino")
    R, start_ranks = barbu_positions_before(8, domino, "start_rank")
    _, domino_doubles = barbu_positions_before(8, domino, "double")
    _, other_doubles = barbu_positions_before(8, BA.CONTRACT_NAMES.index("no_hearts"),
                                              "double")
    states, _, _, _ = seated_positions("barbu", rules, 1, 23)  # card play, ...
    states = np.concatenate([start_ranks, domino_doubles, other_doubles, states[:40]])
    searched = ((states[:, BL.CONTRACT] == domino) & (states[:, BL.PHASE] != BL.PH_PLAY)
                & (states[:, BL.PHASE] != BL.PH_CONTRACT))
    assert searched[:16].all() and not searched[16:24].any() and (~searched).sum() >= 40
    seen, legal = seated("barbu", R, states)
    spec = f"pimc:{quick},net={net},search=start_rank+double,search_in=domino"
    agent = make_agent(spec, "barbu")
    assert agent.label.endswith(f",net={net},search=start_rank+double,search_in=domino")
    actions = agent.act(seen(), legal)
    by_search = make_agent(f"pimc:{quick},net={net}", "barbu").act(seen(), legal)
    networks = agent.net.act(seen(), legal)
    # the starting rank among the ranks the declarer holds, on the same play-outs
    held = [{c % 13 for c in range(52) if st[BL.HANDS + st[BL.TURN]] >> c & 1}
            for st in start_ranks]
    assert all(a - BA.START_RANK in h for a, h in zip(actions[:8], held))
    alike = [b - BA.START_RANK in h for b, h in zip(by_search[:8], held)]
    assert any(alike) and np.array_equal(actions[:8][alike], by_search[:8][alike])
    assert np.array_equal(actions[8:][searched[8:]], by_search[8:][searched[8:]])
    assert np.array_equal(actions[~searched], networks[~searched])
    assert not np.array_equal(actions[:8], networks[:8])  # the search decides there
    monkeypatch.setattr(NeuralAgent, "packed_single", lambda self: None)
    python_path = make_agent(spec, "barbu")
    assert python_path._one_call is None
    assert np.array_equal(python_path.act(seen(), legal), actions)


def test_bad_search_options_are_clear_errors(tmp_path):
    net = player_file(tmp_path, "barbu", BarbuRules())
    assert_spec_refused(f"pimc:net={net},search=start_rank+bid", "barbu",
                        "'bid' is not a phase valued by play-outs of drawn deals; the phases: "
                        "play, double, trump, start_rank")
    assert_spec_refused(f"pimc:net={net},search=double,search_in=fan_tan", "barbu",
                        "'fan_tan' is not a contract of barbu")
    assert_spec_refused("pimc:search=double", "barbu", "search= leaves decisions.*give net=NAME")
    assert_spec_refused(f"pimc:net={net},search_in=domino", "barbu",
                        "search_in= names the contracts of search=")
    assert_spec_refused(f"pimc:net={net},search=double++play", "barbu", "needs names joined by \\+")
    debertz = player_file(tmp_path, "debertz", DebertzRules())
    assert_spec_refused(f"pimc:net={debertz},search=play", "debertz",
                        "debertz leaves none of its decisions")


def barbu_positions_before(count, contract, phase):
    """The first decision of phase ``phase`` (the engine's name: ``start_rank``,
    ``double``, ...) of ``count`` Barbu deals, contract ``contract`` forced; the rules
    packed and the positions."""
    from cardsim.barbu import actions as BA
    from cardsim.barbu import engine_nb as BE
    from cardsim.barbu import layout as BL

    R = BarbuRules().pack()
    wanted = getattr(BL, f"PH_{phase.upper()}")
    out = []
    for g in range(count):
        st = np.zeros(BL.STATE_WIDTH, dtype=np.int64)
        BE.init_game(st, R, 5, g)
        BE.step(st, R, BA.CONTRACT + contract)
        while st[BL.PHASE] != wanted:
            base, bits = BE.legal_mask(st, R)
            BE.step(st, R, base + (int(bits) & -int(bits)).bit_length() - 1)
        out.append(st.copy())
    return R, np.array(out)


def barbu_doubling_positions(count, contract=3):
    """The first doubling decision (B6) of ``count`` Barbu deals, the contract forced."""
    return barbu_positions_before(count, contract, "double")


def test_barbu_doubling_draws_its_play_outs_by_the_beliefs():
    """B6: doubling by simulation plays out deals drawn by the beliefs as well (a declarer's
    contract tells where its cards lie): beliefs that each hidden card lies with one chosen
    seat change some doubles against even beliefs; the same beliefs give the same answers."""
    R, states = barbu_doubling_positions(24)
    params = make_agent("pimc:rollouts=24", "barbu").params
    assert_skewed_beliefs_change_some_actions(states, R, params)
