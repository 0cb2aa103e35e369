"""Gymnasium environment for Debertz (docs/rules/debertz.md)."""

from __future__ import annotations

from cardsim.envs.single import CardGameEnv


class DebertzEnv(CardGameEnv):
    """Debertz for one learning seat (or side) against opponent policies.

    ## Description
    The trick-taking game of docs/rules/debertz.md with 2, 3 or 4 players (or two teams): bidding
    for trump (D4), the seven swap (D5), melds and bella (D6, D7), play of the tricks (D8) and
    scoring with bytes and the pot (D9). The learner holds seat ``seat``; every other seat is
    played by its opponent policy (the engine's uniform random policy by default).

    ## Actions
    ``Discrete(40)``: 0-31 play that card (bit = suit * 8 + rank, 7 = 0 ... A = 7; suits S H D
    C), 32 pass, 33 play (accept the turn-up suit), 34-37 name suit S/H/D/C, 38 swap, 39 keep
    (cardsim.debertz.actions). Only legal actions are accepted: ``info["action_mask"]``
    (bool) and ``action_masks()`` give them; any other raises ``IllegalActionError`` (wrap
    with ``IllegalActionPenalty`` to end the episode instead). ``action_space.sample()``
    draws a legal action (see ``single.LegalDiscrete``).

    ## Observation
    What the learner's seat may know (cardsim.debertz.observe_nb, seats relative to the
    observer): a ``Dict`` of the named pieces of ``observe_nb.PIECES`` (hand, cards played by
    whom, current trick, turn-up and where it went, bids, trump, melds declared or shown, bella,
    voids, tricks and points taken, scores, ...), each piece once (float32).
    ``observation_mode="vector"`` gives the same pieces as one float32 vector
    (``observe_nb.OBS_SIZE`` entries) instead; ``mask_in_observation=True`` adds
    ``"action_mask"`` (bool, 40, as in ``info``) to the dict for policies that read it.
    ``info["seat"]`` is the seat the observation is of: the learner seat to act, or at the
    end of an episode the learner's seat.

    ## Rewards
    At every deal scored: the points recorded for the learner's side (D9.2-D9.4, after bytes,
    pot and penalties) times ``reward_scale`` (default 0.01: a typical deal is worth 0-2.5).
    A debertz or a void deal records nothing. ``win_reward`` (default 0) is added when the game
    ends and the learner's side has won (D11).

    ## Episode end
    ``episode="deal"``: after each deal (the game goes on across episodes: the next reset plays
    its next deal, and a new game starts when one ends; ``reset(seed=...)`` starts afresh).
    ``episode="game"``: when the game ends (D11, or a debertz D6.5). Never truncated.

    ## Arguments
    ``rules`` (a ``DebertzRules`` or dict) and/or every convention of ``DebertzRules`` as a
    keyword (``players=3``, ``teams=True``, ``declare="before_play"``, ``target=301``, ...);
    ``seat`` (int or ``"random"`` per game); ``control`` (``"seat"``, or ``"side"``: the
    learner decides for both seats of its team); ``opponents`` (None = built-in random, an
    agent for every other seat, a list per seat, or a dict seat -> agent; see
    cardsim.envs.single); ``episode``; ``reward_scale``; ``win_reward``;
    ``observation_mode`` (``"dict"`` or ``"vector"``); ``mask_in_observation``;
    ``render_mode`` (None or ``"ansi"``: the seat's hand, the trick, trump and turn-up,
    the scores and the legal actions).

    ## Version history
    * v0: first version; the dict observation holds each piece once (no ``"vector"``,
      ``"action_mask"`` only with ``mask_in_observation``).
    """

    GAME = "debertz"
