"""The neural agent: its network, checkpoints (round trip and every way one can be wrong),
and legal play wherever agents are seated."""

import re

import numpy as np
import pytest
import torch

from agents.neural import ActionHeadNet, NeuralAgent, checkpoint_bytes, load_checkpoint
from agents.registry import make_agent
from cardsim import games
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import CheckpointError, InvalidConfigError
from experiments.cli import main
from tests.agents.spec_errors import assert_spec_refused


def write_checkpoint(path, game="debertz", rules=None, hidden=(16,), seed=0, **kw):
    torch.manual_seed(seed)
    rules = rules or games.get(game).make_rules(None, {"players": 2} if game == "debertz"
                                                else {})
    kit = games.get(game)
    net = ActionHeadNet(kit.obs_size, kit.num_actions, hidden)
    path.write_bytes(checkpoint_bytes(net, game, rules, "dmc", **kw))
    return net


def test_checkpoint_round_trip_gives_the_same_network(tmp_path):
    net = write_checkpoint(tmp_path / "a.pt")
    data = load_checkpoint(tmp_path / "a.pt", game="debertz", rules=DebertzRules(players=2))
    obs = torch.rand(5, net.obs_size)
    assert torch.equal(data["net"](obs), net(obs))
    assert data["rules_hash"] == DebertzRules(players=2).rules_hash()


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_neural_agent_plays_only_legal_moves_at_the_table(tmp_path, capsys, game):
    # an untrained network rates illegal actions highly too: the mask must keep them out
    path = tmp_path / f"{game}.pt"
    write_checkpoint(path, game=game)
    args = (["debertz", "--players", "2", "--hands", "40"] if game == "debertz"
            else ["barbu", "--hands", "8"])
    code = main(["simulate", *args, "--agents", f"neural:checkpoint={path}"])
    out, err = capsys.readouterr()
    assert code == 0, err  # the table stops with an error on any illegal action


def test_neural_agent_takes_the_best_legal_action(tmp_path):
    path = tmp_path / "a.pt"
    net = write_checkpoint(path)
    agent = make_agent(f"neural:checkpoint={path}", "debertz")
    rng = np.random.default_rng(0)
    obs = rng.random((64, net.obs_size), dtype=np.float32)
    legal = rng.random((64, net.num_actions)) < 0.2
    legal[:, 3] = True
    acts = agent.act(obs, legal)
    q = net(torch.from_numpy(obs)).detach().numpy()
    q[~legal] = -np.inf
    assert legal[np.arange(64), acts].all()
    assert (acts == q.argmax(1)).all()


def test_neural_agent_as_an_environment_opponent_and_in_a_tournament(tmp_path):
    import gymnasium as gym

    import cardsim.envs  # noqa: F401
    from experiments.tournaments.tournament import tournament

    path = tmp_path / "a.pt"
    write_checkpoint(path)
    env = gym.make("cardsim/Debertz-v0", players=2, opponents=f"neural:checkpoint={path}")
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        obs, r, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = term or trunc
    result = tournament("debertz", DebertzRules(players=2),
                        [{"name": "neural", "checkpoint": str(path)}, "random"], deals=20)
    assert result["pairings"][0]["items"] == 20


def corrupt(path):
    path.write_bytes(path.read_bytes()[:200] + b"garbage" * 50)


def truncate(path):
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])


def not_torch(path):
    path.write_text("hello")


def not_ours(path):
    torch.save({"weights": torch.zeros(3)}, path)


@pytest.mark.parametrize("damage, words", [
    (corrupt, "cannot be read"), (truncate, "cannot be read"), (not_torch, "cannot be read"),
    (not_ours, "not a cardsim neural checkpoint")])
def test_damaged_checkpoints_are_one_clear_error(tmp_path, damage, words):
    path = tmp_path / "a.pt"
    write_checkpoint(path)
    damage(path)
    with pytest.raises(CheckpointError, match=words) as e:
        make_agent(f"neural:checkpoint={path}", "debertz")
    assert str(path) in str(e.value)


def test_checkpoint_for_another_game_rules_or_observation_spec(tmp_path, monkeypatch):
    path = tmp_path / "a.pt"
    write_checkpoint(path)
    with pytest.raises(CheckpointError, match="is for debertz, not barbu"):
        make_agent(f"neural:checkpoint={path}", "barbu")
    agent = make_agent(f"neural:checkpoint={path}", "debertz")
    with pytest.raises(CheckpointError, match="trained for other rules: players=2"):
        agent.check_rules(DebertzRules(players=3))
    import agents.neural.checkpoint as ck

    monkeypatch.setattr(ck, "observation_spec_hash", lambda game, size=None: "0" * 16)
    with pytest.raises(CheckpointError, match="another observation spec"):
        load_checkpoint(path)


def test_a_checkpoint_of_an_earlier_observation_spec_reads_its_start(tmp_path):
    """Pieces are only ever appended to an observation: a checkpoint made when the vector
    ended earlier (at a piece's end) loads, and its network plays from the vector's start;
    one whose size or pieces are not a start of today's is refused."""
    import io

    from agents.neural.checkpoint import observation_spec_hash

    kit = games.get("debertz")
    start = kit.observer.SPEC.by_name["end_points"]
    size = start.offset + start.size  # the vector before its trick pieces were appended
    assert size < kit.obs_size
    path = tmp_path / "a.pt"
    write_checkpoint(path)

    def saved_for(obs_size, spec_hash):
        torch.manual_seed(3)
        net = ActionHeadNet(obs_size, kit.num_actions, (16,))
        data = torch.load(io.BytesIO(path.read_bytes()), weights_only=True)
        data["network"], data["model"] = net.spec(), net.state_dict()
        data["observation"] = {"size": obs_size, "hash": spec_hash}
        torch.save(data, path)
        return net

    net = saved_for(size, observation_spec_hash(kit, size))
    agent = make_agent(f"neural:checkpoint={path}", "debertz")
    rng = np.random.default_rng(0)
    obs = rng.random((64, kit.obs_size), dtype=np.float32)
    legal = rng.random((64, kit.num_actions)) < 0.3
    legal[:, 0] = True
    q = net(torch.from_numpy(obs[:, :size])).detach().numpy()
    q[~legal] = -np.inf
    assert (agent.act(obs, legal) == q.argmax(1)).all()
    for bad_size, bad_hash in ((size - 1, observation_spec_hash(kit, size)),
                               (size, observation_spec_hash(games.get("barbu")))):
        saved_for(bad_size, bad_hash)
        with pytest.raises(CheckpointError, match="another observation spec"):
            load_checkpoint(path)


def test_missing_option_or_file(tmp_path):
    assert_spec_refused("neural", "debertz", "needs checkpoint=PATH")
    assert_spec_refused(f"neural:checkpoint={tmp_path}/a.pt,depth=2", "debertz",
                        "no option 'depth'")
    assert_spec_refused(f"neural:checkpoint={tmp_path}/none.pt", "debertz",
                        "no such file", CheckpointError)


@pytest.mark.parametrize("case", ["rules", "truncated"])
def test_command_line_reports_a_bad_checkpoint_in_one_line(tmp_path, capsys, case):
    path = tmp_path / "a.pt"
    write_checkpoint(path)
    if case == "truncated":
        truncate(path)
    code = main(["tournament", "debertz", "--players", "3", "--deals", "10", "--agents",
                 f"neural:checkpoint={path}", "random"])
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert str(path) in err
    assert ("other rules" if case == "rules" else "cannot be read") in err


def test_neural_agent_in_an_experiment_config(tmp_path, capsys):
    import yaml

    path = tmp_path / "a.pt"
    write_checkpoint(path)
    config = tmp_path / "t.yaml"
    config.write_text(yaml.safe_dump({
        "name": "t", "kind": "tournament", "game": "debertz", "rules": {"players": 2},
        "agents": [{"name": "neural", "checkpoint": str(path)}, "heuristic"], "deals": 30}))
    assert main(["run", str(config), "--out", str(tmp_path / "runs")]) == 0
    assert "neural" in capsys.readouterr().out
    truncate(path)
    assert main(["run", str(config), "--out", str(tmp_path / "runs2")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cannot be read" in err and str(path) in err


def test_a_checkpoint_name_is_looked_up_in_the_zoo(tmp_path, monkeypatch):
    import json

    import agents.neural.zoo as zoo

    monkeypatch.setattr(zoo, "MODELS_DIR", tmp_path)
    net = write_checkpoint(tmp_path / "mine.pt")
    (tmp_path / "mine.json").write_text(json.dumps({"name": "mine", "kind": "policy",
                                                    "weights": "mine.pt", "options": {}}))
    agent = make_agent("neural:checkpoint=mine", "debertz")
    obs = torch.rand(3, net.obs_size)
    assert torch.equal(agent.net(obs), net(obs)) and agent.label == "neural:mine"
    with pytest.raises(CheckpointError, match="no network 'yours' in the model zoo; the zoo: "
                                              "mine"):
        make_agent("neural:checkpoint=yours", "debertz")


# The zoo: every network with the table it plays (rules), its kind
ZOO = {"debertz-2p": {"players": 2}, "debertz-3p": {"players": 3}, "debertz-4p": {"players": 4},
       "debertz-2v2-critic": {"players": 4, "teams": True}, "barbu": {},
       "barbu-specialist": {}, "barbu-critic": {}}
ZOO_BELIEFS = {"debertz-2p-beliefs": {"players": 2}}  # belief networks (pimc:beliefs=)


def test_every_zoo_network_is_tested_and_the_zoo_is_small():
    from agents.neural.zoo import MODELS_DIR, card, model_names, verify

    assert set(model_names()) == set(ZOO) | set(ZOO_BELIEFS)
    assert len(model_names()) <= 8
    assert sum(p.stat().st_size for p in MODELS_DIR.glob("*.pt")) <= 10e6
    for name in model_names():
        verify(name)  # the weights are the card's (sha256)
        assert card(name)["name"] == name


def test_the_checkpoint_option_help_names_every_playing_network():
    from agents.neural.agent import NeuralAgent
    from agents.neural.zoo import playing_names

    assert sorted(playing_names()) == sorted(ZOO)
    help_text = NeuralAgent.OPTION_HELP["checkpoint"]
    assert all(name in help_text for name in ZOO)
    assert not any(name in help_text for name in ZOO_BELIEFS)


@pytest.mark.parametrize("name", sorted(ZOO_BELIEFS))
def test_zoo_belief_networks_load_by_name(name):
    from agents.neural.beliefs import PLACES, load_beliefs

    game = name.split("-")[0]
    beliefs = load_beliefs(name, games.get(game))
    beliefs.check_rules(games.get(game).make_rules(None, ZOO_BELIEFS[name]))
    logp = beliefs.log_places(np.zeros((3, games.get(game).obs_size), dtype=np.float32))
    assert logp.shape == (3, 64, PLACES)
    with pytest.raises(InvalidConfigError, match="belief network, which does not play"):
        make_agent(f"neural:checkpoint={name}", game)


@pytest.mark.parametrize("name", sorted(ZOO))
def test_zoo_networks_load_by_name_and_beat_random(name):
    from agents.neural.zoo import card
    from experiments.tournaments.tournament import Tournament

    game = name.split("-")[0]
    rules = games.get(game).make_rules(None, ZOO[name])
    assert card(name)["rules_hash"] == rules.rules_hash()
    result = Tournament(game, rules, [f"neural:checkpoint={name}", "random"], deals=200,
                        seed=12345).run()
    pair = result["pairings"][0]
    assert pair["difference"] - pair["difference_ci95"] > 0, pair


def test_a_zoo_card_gives_the_network_its_own_options_and_a_spec_replaces_them():
    critic = make_agent("neural:checkpoint=barbu-critic", "barbu")
    assert critic.label == "neural:barbu-critic"
    assert critic.prior is not None and len(critic.nets) == 2  # the specialist seated
    assert critic.margins.tolist() == pytest.approx([0.01, 0.02, 0.02, 0.01, 0.01, 0.01,
                                                     0.06, 0.04])
    wider = make_agent("neural:checkpoint=barbu-critic,margin_domino=8", "barbu")
    assert wider.label == "neural:barbu-critic,margin_domino=8"
    assert wider.margins[-1] == pytest.approx(0.08)
    plain = make_agent("neural:checkpoint=barbu", "barbu")
    assert plain.prior is None and len(plain.nets) == 1
    assert make_agent("pimc:net=barbu-critic,endgame=4", "barbu").net.prior is not None


@pytest.mark.parametrize("old, says", [
    ("debertz-2p-distill-anneal", "now called 'debertz-2p' (the same weights)"),
    ("debertz-3p-netplay", "no longer shipped: 'debertz-3p' replaces it in the model zoo; "
                           "configs/train/debertz_3p_netplay.yaml trained it"),
    ("barbu-beliefs", "no longer shipped; configs/train/barbu_beliefs.yaml trained it")])
def test_a_retired_network_name_says_what_replaces_it(old, says):
    game = old.split("-")[0]
    with pytest.raises(CheckpointError, match=re.escape(says)):
        make_agent(f"neural:checkpoint={old}", game)


@pytest.mark.parametrize("name", sorted(set(ZOO) | set(ZOO_BELIEFS)))
def test_zoo_cards_name_the_recipe_that_made_them(name):
    # each stage's config exists and is the config of the run that made it, the last
    # stage's iterations are those the network was saved at
    from pathlib import Path

    from agents.neural.zoo import card, weights_path
    from experiments.train.config import load_config

    root = Path(__file__).resolve().parents[2]
    c = card(name)
    previous = None
    for stage in c["recipe"]["stages"]:
        cfg = load_config(root / stage["config"], check_init=False)
        assert cfg.name == stage["name"] and cfg.algorithm == stage["algorithm"]
        assert stage["init"] == previous  # each stage starts from the one before
        previous = stage["name"]
    last = c["recipe"]["stages"][-1 if c["kind"] != "critic" or name != "barbu-critic"
                                 else -2]
    training = load_checkpoint(weights_path(name))["training"]
    assert training["iteration"] == last["iterations"]
    assert c["training"]["stages"] == len(c["recipe"]["stages"])


def barbu_positions(n=48, seed=5):
    """Engine rows of Barbu positions reached by random play (every phase), with the
    observations a table gives a Python agent (the rows behind them) and their legal masks."""
    from cardsim.barbu.game import BarbuGame
    from cardsim.barbu import observe_nb
    from cardsim.table import EngineRows, Observations

    rng = np.random.default_rng(seed)
    game = BarbuGame(seed=seed)
    states, legal, seats = [], [], []
    while len(states) < n:
        if game.is_deal_over:
            game.next_deal()
            continue
        states.append(game.st.copy())
        legal.append(game.legal_mask())
        seats.append(game.turn())
        game.step(int(rng.choice(game.legal_actions())))
    states = np.stack(states)
    obs = np.zeros((n, observe_nb.OBS_SIZE), dtype=np.float32)
    for i in range(n):
        observe_nb.observe(states[i], game.R, seats[i], obs[i])
    observations = obs.view(Observations)
    observations.engine = EngineRows(games.get("barbu").tag, states, game.R,
                                     np.arange(1, n + 1, dtype=np.uint64), np.arange(n))
    return observations, np.stack(legal)


def test_a_prior_is_kept_unless_the_network_beats_it_by_the_margin(tmp_path):
    path = tmp_path / "b.pt"
    net = write_checkpoint(path, game="barbu")
    observations, legal = barbu_positions()
    kept = make_agent("heuristic", "barbu").act(observations, legal)
    q = net(torch.from_numpy(np.asarray(observations))).detach().numpy().astype(np.float64)
    q[~legal] = -np.inf
    best = q.argmax(1)
    gap = q[np.arange(len(q)), best] - q[np.arange(len(q)), kept]
    margin = float(np.median(gap[gap > 0])) / 0.01        # points: outputs are 0.01 x points
    expected = np.where(gap > margin * 0.01, best, kept)
    assert (expected == best).any() and (expected != best).any()   # both branches taken
    agent = make_agent(f"neural:checkpoint={path},prior=heuristic,margin={margin!r}", "barbu")
    assert (agent.act(observations, legal) == expected).all()
    agent._packed = None                                   # torch's forward (a GPU network)
    assert (agent.act(observations, legal) == expected).all()
    assert "prior=heuristic" in agent.label
    # no margin: the network's own choice; a margin beyond every gap: the prior's
    greedy = make_agent(f"neural:checkpoint={path},prior=heuristic", "barbu")
    assert (greedy.act(observations, legal) == best).all()
    never = make_agent(f"neural:checkpoint={path},prior=heuristic,margin=1000000", "barbu")
    assert (never.act(observations, legal) == kept).all()


def test_a_contracts_own_margin_applies_where_that_contract_is_played(tmp_path):
    from cardsim.barbu import layout as L

    path = tmp_path / "b.pt"
    net = write_checkpoint(path, game="barbu")
    observations, legal = barbu_positions(n=120, seed=9)
    contract = observations.engine.states[:, L.CONTRACT]
    names = games.get("barbu").item_labels
    kept = make_agent("heuristic", "barbu").act(observations, legal)
    q = net(torch.from_numpy(np.asarray(observations))).detach().numpy()
    q[~legal] = -np.inf
    best = q.argmax(1)
    differ = best != kept
    # the contract most often in play where the two differ: the prior kept there only
    c = np.bincount(contract[differ & (contract >= 0)]).argmax()
    expected = np.where(contract == c, kept, best)
    assert (differ & (contract == c)).any() and (differ & (contract != c)).any()
    agent = make_agent(f"neural:checkpoint={path},prior=heuristic,margin_{names[c]}=1000000",
                       "barbu")
    assert f"margin_{names[c]}=1e+06" in agent.label
    assert (agent.act(observations, legal) == expected).all()
    agent._packed = None                                   # torch's forward (a GPU network)
    assert (agent.act(observations, legal) == expected).all()
    # the default margin everywhere else, before the contract is chosen too
    agent = make_agent(f"neural:checkpoint={path},prior=heuristic,margin=1000000,"
                       f"margin_{names[c]}=0", "barbu")
    assert (agent.act(observations, legal) == np.where(contract == c, best, kept)).all()


def test_a_contracts_own_network_decides_where_that_contract_is_played(tmp_path):
    # checkpoint_CONTRACT=B: B's values where the contract is in play (over the prior or
    # alone), checkpoint's everywhere else (other contracts, the contract choice); the
    # compiled and torch paths agree
    from cardsim.barbu import layout as L

    main_path, other_path = tmp_path / "a.pt", tmp_path / "b.pt"
    nets = [write_checkpoint(main_path, game="barbu", seed=0),
            write_checkpoint(other_path, game="barbu", seed=1)]
    observations, legal = barbu_positions(n=160, seed=11)
    contract = observations.engine.states[:, L.CONTRACT]
    kept = make_agent("heuristic", "barbu").act(observations, legal)
    best, gap = [], []
    for net in nets:
        q = net(torch.from_numpy(np.asarray(observations))).detach().numpy()
        q[~legal] = -np.inf
        best.append(q.argmax(1))
        gap.append(q[np.arange(len(q)), best[-1]] - q[np.arange(len(q)), kept])
    names = games.get("barbu").item_labels
    differ = best[0] != best[1]
    c = np.bincount(contract[differ & (contract >= 0)]).argmax()
    ours = contract == c
    assert (differ & ours).any() and (differ & ~ours).any()   # both networks decide
    spec = f"neural:checkpoint={main_path},checkpoint_{names[c]}={other_path}"
    alone = make_agent(spec, "barbu")
    assert f"checkpoint_{names[c]}={other_path}" in alone.label
    expected = np.where(ours, best[1], best[0])
    assert (alone.act(observations, legal) == expected).all()
    assert (alone.act(np.asarray(observations), legal) == expected).all()  # no engine rows
    alone._packed = None                                   # torch's forward (a GPU network)
    assert (alone.act(observations, legal) == expected).all()
    margin = float(np.median(np.concatenate(gap)[np.concatenate(gap) > 0])) / 0.01
    critic = make_agent(f"{spec},prior=heuristic,margin={margin!r}", "barbu")
    over = [np.where(g > margin * 0.01, b, kept) for g, b in zip(gap, best)]
    expected = np.where(ours, over[1], over[0])
    assert (over[0] != over[1])[ours].any()
    assert (critic.act(observations, legal) == expected).all()
    critic._packed = None
    assert (critic.act(observations, legal) == expected).all()
    # one contract's network named again for another: loaded once
    twice = make_agent(f"{spec},checkpoint_{names[(c + 1) % 7]}={other_path}", "barbu")
    assert len(twice.nets) == 2


@pytest.mark.parametrize("other, words", [
    (dict(hidden=(8,)), r"must be of the kind and shape of checkpoint=.*\[\d+, 16, \d+\]"),
    (dict(algorithm="ppo"), "a ppo network"),
])
def test_a_contracts_own_network_is_refused_unless_it_matches(tmp_path, other, words):
    write_checkpoint(tmp_path / "a.pt", game="barbu")
    kit = games.get("barbu")
    torch.manual_seed(0)
    net = ActionHeadNet(kit.obs_size, kit.num_actions, other.get("hidden", (16,)))
    (tmp_path / "b.pt").write_bytes(checkpoint_bytes(net, "barbu", kit.make_rules(None, {}),
                                                     other.get("algorithm", "dmc")))
    with pytest.raises(InvalidConfigError, match=words):
        make_agent(f"neural:checkpoint={tmp_path / 'a.pt'},checkpoint_trumps="
                   f"{tmp_path / 'b.pt'}", "barbu")
    with pytest.raises(InvalidConfigError, match="no option 'checkpoint_trumps'"):
        make_agent(f"neural:checkpoint={tmp_path / 'a.pt'},checkpoint_trumps=x", "debertz")


def test_a_network_over_a_prior_plays_legally_at_the_table(tmp_path, capsys):
    path = tmp_path / "b.pt"
    write_checkpoint(path, game="barbu")
    code = main(["simulate", "barbu", "--hands", "8", "--agents",
                 f"neural:checkpoint={path},prior=heuristic,margin=1"])
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize("options, algorithm, words", [
    ("margin=2", "dmc", "margin needs prior"),
    ("prior=heuristic,margin=-1", "dmc", "margin must be a number of points >= 0"),
    ("prior=heuristic,margin=lots", "dmc", "margin must be a number"),
    ("prior=heuristic", "ppo", "prior needs a value network"),
    ("prior=nobody", "dmc", "unknown barbu agent 'nobody'"),
    ("priors=heuristic", "dmc", "no option 'priors'"),
    ("margin_trumps=2", "dmc", "margin_trumps needs prior"),
    ("prior=heuristic,margin_no_trick=2", "dmc", "no option 'margin_no_trick'.*margin_no_tricks"),
    ("prior=heuristic,margin_domino=-3", "dmc", "margin_domino must be a number of points")])
def test_a_prior_is_refused_with_a_clear_error(tmp_path, options, algorithm, words):
    torch.manual_seed(0)
    kit = games.get("barbu")
    net = ActionHeadNet(kit.obs_size, kit.num_actions, (8,))
    path = tmp_path / "b.pt"
    path.write_bytes(checkpoint_bytes(net, "barbu", kit.make_rules(None, {}), algorithm))
    with pytest.raises(InvalidConfigError, match=words):
        make_agent(f"neural:checkpoint={path},{options}", "barbu")


def test_debertz_has_no_contract_margins(tmp_path):
    path = tmp_path / "d.pt"
    write_checkpoint(path)
    with pytest.raises(InvalidConfigError, match="no option 'margin_trumps'; its options "
                                                 "for debertz: checkpoint, prior, margin$"):
        make_agent(f"neural:checkpoint={path},prior=heuristic,margin_trumps=1", "debertz")


def test_a_prior_needs_the_tables_observations(tmp_path):
    path = tmp_path / "b.pt"
    write_checkpoint(path, game="barbu")
    observations, legal = barbu_positions(n=4)
    agent = make_agent(f"neural:checkpoint={path},prior=heuristic,margin=1", "barbu")
    with pytest.raises(InvalidConfigError, match="engine rows"):
        agent.act(np.asarray(observations), legal)
