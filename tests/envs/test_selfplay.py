"""Batched self-play: legal masks and observations match the engine, autoreset modes,
rewards, determinism over thread counts, and the Gymnasium VectorEnv on it."""

import numpy as np
import pytest

from cardsim.barbu import engine_nb as BE
from cardsim.barbu import layout as BL
from cardsim.debertz import engine_nb as DE
from cardsim.debertz import layout as DL
from cardsim.envs.selfplay import SelfPlayBatch, SelfPlayVectorEnv, random_legal_actions
from cardsim.errors import IllegalActionError


def engine_legal(game, st, R):
    if game == "debertz":
        m = int(DE.legal_mask(st, R))
        return np.array([(m >> a) & 1 for a in range(40)], dtype=bool)
    out = np.zeros(80, dtype=np.uint8)
    BE.legal_array(st, R, out)
    return out.astype(bool)


CASES = [("debertz", {}), ("debertz", {"players": 3}), ("debertz", {"players": 4, "teams": True}),
         ("barbu", {}), ("barbu", {"episode": "game"})]


@pytest.mark.parametrize("game,kw", CASES)
def test_legal_masks_and_observations_match_the_engine(game, kw):
    b = SelfPlayBatch(game, 64, seed=3, autoreset="same_step", **kw)
    r = b.reset()
    rng = np.random.default_rng(0)
    obs_mod = b.kit.observer
    out = np.zeros(obs_mod.OBS_SIZE, np.float32)
    turn = DL.TURN if game == "debertz" else BL.TURN
    dones = 0
    for step in range(300):
        for i in range(0, 64, 7):
            st = b.states[i]
            assert r.seats[i] == st[turn]
            assert np.array_equal(r.legal[i], engine_legal(game, st, b.R))
            obs_mod.observe(st, b.R, int(r.seats[i]), out)
            assert np.array_equal(r.obs[i], out)
        r = b.step(random_legal_actions(r.legal, rng))
        dones += int(r.done.sum()) + int((r.rewards != 0).any(axis=1).sum())
    assert dones > 0  # episodes ended, or at least deals were scored


@pytest.mark.parametrize("game", ["debertz", "barbu"])
def test_next_step_autoreset_rewards_are_the_engines(game):
    b = SelfPlayBatch(game, 32, seed=1, autoreset="next_step", reward_scale=1.0)
    r = b.reset()
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(400):
        pending_before = b.pending.copy()
        r = b.step(random_legal_actions(r.legal, rng))
        assert not r.done[pending_before].any()  # rows that were waiting just restarted
        for i in np.flatnonzero(r.done):
            st = b.states[i]
            assert r.legal[i].all()  # any action accepted (ignored) at the next call
            if game == "debertz":
                n = b.rules.players
                expected = [0 if st[DL.END] == DL.END_VOID else st[DL.RECORDED + b.rules.side_of(s)]
                            for s in range(n)]
                assert list(r.rewards[i, :n]) == expected
            else:
                assert list(r.rewards[i]) == list(st[BL.DEAL_SCORES:BL.DEAL_SCORES + 4])
            seen += 1
    assert seen > 0


def test_same_results_for_any_thread_count():
    import numba

    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        b = SelfPlayBatch("debertz", 50, seed=9, threads=threads, players=3)
        r = b.reset()
        rng = np.random.default_rng(5)
        total = np.zeros((50, 4))
        for _ in range(200):
            r = b.step(random_legal_actions(r.legal, rng))
            total += r.rewards
        runs.append((total.copy(), r.obs.copy()))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_illegal_batch_action_raises():
    b = SelfPlayBatch("barbu", 4, seed=0)
    r = b.reset()
    bad = np.array([int(np.flatnonzero(~r.legal[i])[0]) for i in range(4)])
    with pytest.raises(IllegalActionError, match="game 0"):
        b.step(bad)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_vector_env(mode):
    from gymnasium.vector import AutoresetMode

    env = SelfPlayVectorEnv("debertz", num_envs=16, autoreset_mode=mode, seed=0)
    assert env.metadata["autoreset_mode"] == AutoresetMode(
        "NextStep" if mode == "next_step" else "SameStep")
    obs, info = env.reset(seed=0)
    assert obs.shape == (16, env.single_observation_space.shape[0])
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        actions = random_legal_actions(info["action_mask"], rng)
        obs, rew, term, trunc, info = env.step(actions)
        assert rew.shape == (16,) and not trunc.any()
        ended += int(term.sum())
        if mode == "same_step" and term.any():
            assert info["_final_obs"].sum() == term.sum()
    assert ended > 0


@pytest.mark.parametrize("game, kw, opponents", [
    ("debertz", dict(players=2), "heuristic"),
    ("debertz", dict(players=4, teams=True), {1: "heuristic", 3: "heuristic"}),
    ("barbu", dict(), [None, "heuristic", None, "random"]),
])
def test_compiled_opponents_play_inside_the_batch(game, kw, opponents):
    """Seats of compiled opponents never reach the caller; they play (and score) inside the
    step kernel, deterministically for any thread count."""
    runs = []
    for threads in (1, 2):
        b = SelfPlayBatch(game, 64, seed=3, opponents=opponents, threads=threads,
                          autoreset="same_step", **kw)
        theirs = np.flatnonzero(b.kinds >= 0)
        r = b.reset()
        total = np.zeros(4)
        episodes = 0
        for _ in range(400):
            assert not np.isin(r.seats, theirs).any()
            r = b.step(r.legal.argmax(axis=1))  # the caller plays its first legal action
            total += r.rewards.sum(axis=0)
            episodes += int(r.done.sum())
        runs.append((total.copy(), episodes, b.states.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][2], runs[1][2])
    assert runs[0][1] > 20
    if game == "debertz":  # the heuristic side outscores first-legal play
        mine = [s for s in range(kw["players"]) if s not in np.flatnonzero(b.kinds >= 0)]
        assert runs[0][0][1] > runs[0][0][mine[0]]


def test_selfplay_opponents_must_be_compiled():
    from cardsim.errors import InvalidConfigError

    class Py:
        def act(self, o, m):
            return m.argmax(axis=1)

    with pytest.raises(InvalidConfigError, match="must be compiled agents"):
        SelfPlayBatch("debertz", 4, opponents=Py())
    with pytest.raises(InvalidConfigError, match="at least one seat"):
        SelfPlayBatch("debertz", 4, opponents=["heuristic", "heuristic"])


def test_every_env_has_the_same_reward_scale_and_autoreset_defaults():
    import inspect

    import gymnasium as gym

    pytest.importorskip("pettingzoo")
    from cardsim.envs.aec import DebertzAECEnv
    from cardsim.envs.defaults import AUTORESET, REWARD_SCALE

    def default(fn, name):
        return inspect.signature(fn).parameters[name].default

    assert gym.make("cardsim/Debertz-v0").unwrapped.reward_scale == REWARD_SCALE
    assert gym.make("cardsim/Barbu-v0").unwrapped.reward_scale == REWARD_SCALE
    for fn in (SelfPlayBatch, SelfPlayVectorEnv, DebertzAECEnv):
        assert default(fn, "reward_scale") == REWARD_SCALE
    assert default(SelfPlayBatch, "autoreset") == default(SelfPlayVectorEnv,
                                                          "autoreset_mode") == AUTORESET
    assert SelfPlayBatch("debertz", 2).autoreset == AUTORESET == "next_step"
