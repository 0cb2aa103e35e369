"""Gymnasium environment for Barbu (docs/rules/barbu.md)."""

from __future__ import annotations

from cardsim.envs.single import CardGameEnv


class BarbuEnv(CardGameEnv):
    """Barbu for one learning seat against three opponent policies.

    ## Description
    The 4-player compendium game of docs/rules/barbu.md: 28 deals, each declarer choosing each of
    the seven contracts once (B2, B3), doubling (B6), trick contracts (B4) and Domino (B5),
    settled per doubled pair (B7). The learner holds seat ``seat``; the other seats are played
    by their opponent policies (the engine's uniform random policy by default).

    ## Actions
    ``Discrete(80)``: 0-51 play that card (bit = suit * 13 + rank, 2 = 0 ... A = 12), 52
    Domino pass, 53-59 choose a contract, 60-63 name the trump suit, 64-76 name the Domino
    starting rank, 77 no double, 78 double, 79 redouble (cardsim.barbu.actions). Only legal
    actions are accepted (``info["action_mask"]``, bool, and ``action_masks()``); any other
    raises ``IllegalActionError`` (see ``IllegalActionPenalty``). ``action_space.sample()``
    draws a legal action (see ``single.LegalDiscrete``).

    ## Observation
    What the learner's seat may know (cardsim.barbu.observe_nb, seats relative to the
    observer): a ``Dict`` of the named pieces of ``observe_nb.PIECES`` (hand, cards played by
    whom, current trick, contract, trump, starting rank, Domino rows, doubles, doubles owed,
    contracts left, voids shown, tricks and scores, ...), each piece once (float32).
    ``observation_mode="vector"`` gives the same pieces as one float32 vector
    (``observe_nb.OBS_SIZE`` entries) instead; ``mask_in_observation=True`` adds
    ``"action_mask"`` (bool, 80, as in ``info``) to the dict. ``info["seat"]`` is the seat
    the observation is of: the learner, also at the end of an episode.

    ## Rewards
    At every deal scored: the learner's deal score (contract score + settlements, B7.3) times
    ``reward_scale`` (default 0.01). ``win_reward`` (default 0) is added when the match ends
    and the learner has (or shares) the highest total (B2).

    ## Episode end
    ``episode="deal"``: after each deal (the match goes on across episodes; a new match starts
    after the 28th deal; ``reset(seed=...)`` starts afresh). ``episode="game"``: after the 28th
    deal of the match. Never truncated.

    ## Arguments
    ``rules`` (a ``BarbuRules`` or dict) and/or every convention of ``BarbuRules`` as a
    keyword (``first_declarer=0``, ``king_lead_rule="no_hearts"``, ``king_must_discard=True``,
    ``trumps_must_ruff=False``, ``trumps_must_overtrump=True``); ``seat`` (0-3 or
    ``"random"`` per match); ``opponents`` (None = built-in random, an agent for every other
    seat, a list per seat, or a dict seat -> agent); ``episode``; ``reward_scale``;
    ``win_reward``; ``observation_mode``; ``mask_in_observation``; ``render_mode`` (None
    or ``"ansi"``: the seat's hand, the trick, the contract, the scores, the legal actions).

    ## Version history
    * v0: first version; the dict observation holds each piece once (no ``"vector"``,
      ``"action_mask"`` only with ``mask_in_observation``).
    """

    GAME = "barbu"
