"""The table: plays many games with a seating of agents, compiled or Python, for both games.

An agent at the table is either

- **compiled**: it has ``kind``, ``params`` and ``policies`` (a ``cardsim.policy_nb.PolicySet``)
  attributes; its policy runs inside the compiled loops (``cardsim.table_nb``), never
  returning to Python; or
- **Python**: any object with the batched ``act(observations, legal_masks) -> actions``
  (a torch module with such a method included). The table steps every game in compiled
  code until games wait for a Python agent, then calls each waiting agent once with the
  batch of its games' observations (the observer's float32 vectors, shape (n, OBS_SIZE), the
  same as the environments give) and legal masks (bool, (n, NUM_ACTIONS)), checks the
  actions and goes on.

Seatings where every agent is compiled run on the block loops (``table_nb.simulate`` and
``table_nb.duplicate``); others run row by row (``table_nb.advance_rows``) in batches of games.
Both play the same items with the same random streams, so a game's result does not depend on
the path, the batch size or the thread count.

What each agent's decisions cost (``duplicate(..., cost=)``, a cost record of
``cardsim.decision_cost_nb``): a compiled agent's decisions are counted in the loops and one
in ``SAMPLE_EVERY`` timed there (cardsim.decision_cost_nb says on which clock); a Python
agent's every batched ``act`` call is timed whole on the process's CPU clock (all its
threads: a network's torch threads, a search's own), and its decisions are the games in the
batch.

The observations a Python agent receives carry, as ``observations.engine``, the engine rows of
their games: that is how a compiled agent's own ``act`` can be called from Python (it reads
only what its seat may know); a Python agent's decision must use the vectors alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Mapping, NamedTuple

import numpy as np

from cardsim import table_nb
from cardsim.compile_notice import compiling
from cardsim.decision_cost_nb import (CLOCK_NS, DECISIONS, TIMED, TIMED_NS, empty_cost,
                                      first_phases)
from cardsim.errors import AgentError, CardsimError, IllegalActionError, InvalidConfigError
from cardsim.policy_nb import PYTHON, RANDOM_POLICIES, PolicySet
from cardsim.runtime import blocks_for, threads

BATCH = 4096   # games per batch on the row-by-row path


def resolve_agent(spec, game: str):
    """An agent from a spec string or mapping (``"heuristic"``, ``"mypkg.bots:MyAgent"``,
    ``{"name": "heuristic", "aggression": 0.7}``), or the agent object itself. Specs are
    resolved by the agent packages installed (entry point group ``cardsim.agent_specs``: a
    function ``(spec, game) -> agent``; the ``agents`` package of this project is one)."""
    if not isinstance(spec, (str, Mapping)):
        return spec
    from importlib.metadata import entry_points

    resolvers = list(entry_points(group="cardsim.agent_specs"))
    if not resolvers:
        raise InvalidConfigError(f"agent {spec!r}: no agent package is installed to resolve "
                                 f"agent names (install cardsim with its agents package)")
    return resolvers[0].load()(spec, game)


class EngineRandom:
    """The engine's own uniformly random policy as a compiled agent (``RANDOM_AGENT``), for
    seatings made without the agents package."""

    label = "random"
    kind = 0
    params = np.zeros(1)
    policies = RANDOM_POLICIES

    def act(self, observations, legal_masks):
        """Random legal actions for the engine rows behind ``observations``
        (``Observations.engine``), drawn by the compiled random policy from those rows' generators;
        ``legal_masks`` is not needed."""
        engine = observations.engine
        return table_nb.act_rows(engine.game, self.policies, engine.states, engine.R,
                                 self.kind, self.params, engine.rng, engine.rows)


RANDOM_AGENT = EngineRandom()


def is_compiled(agent) -> bool:
    """Whether ``agent`` has a compiled policy the table can run inside its loops."""
    return all(hasattr(agent, a) for a in ("kind", "params", "policies"))


def policy_set_of(agents) -> PolicySet:
    """The policies a table seating ``agents`` compiles: the union of its compiled agents'
    sets (random play alone when none brings another). Two agents whose policies share a
    kind id but differ are a clear error."""
    sets = [a.policies for a in agents if a is not None and is_compiled(a)]
    try:
        return RANDOM_POLICIES.union(*sets)
    except ValueError as e:
        raise InvalidConfigError(f"compiled agents cannot share a table: {e}") from None


def params_rows(agents) -> np.ndarray:
    """One row per entry of ``agents``: a compiled agent's parameters, padded to the widest
    (zeros for Python agents and empty entries)."""
    compiled = [a for a in agents if a is not None and is_compiled(a)]
    rows = np.zeros((len(agents), max([len(a.params) for a in compiled], default=1)))
    for i, a in enumerate(agents):
        if a is not None and is_compiled(a):
            rows[i, :len(a.params)] = a.params
    return rows


def check_agent_rules(agents, rules) -> None:
    """Agents made for one rules variant (a trained network) refuse another: each agent's
    optional ``check_rules(rules)`` raises a clear error."""
    for a in agents:
        check = getattr(a, "check_rules", None)
        if a is not None and callable(check):
            check(rules)


def agent_label(agent) -> str:
    """The name of ``agent`` in tables and messages: its ``label``, else its class name."""
    return str(getattr(agent, "label", None) or type(agent).__name__)


class EngineRows(NamedTuple):
    """The engine state behind a batch of observations: rows ``rows`` of ``states`` (packed
    rules ``R``), whose generators are ``rng[rows]``."""

    game: object        # cardsim.game_nb.GameTag
    states: np.ndarray
    R: np.ndarray
    rng: np.ndarray
    rows: np.ndarray


class Observations(np.ndarray):
    """A batch of observation vectors (float32, (n, OBS_SIZE)) with the engine rows behind
    them in ``engine`` (for compiled agents called from Python)."""

    engine: EngineRows | None = None

    def __array_finalize__(self, obj):
        self.engine = getattr(obj, "engine", None)


@dataclass
class Seating:
    """Agents and who sits where: ``patterns[p, seat]`` is the index of the agent in seat
    ``seat`` under pattern ``p`` (one pattern for a plain simulation)."""

    agents: list
    patterns: np.ndarray

    def __post_init__(self):
        self.patterns = np.ascontiguousarray(self.patterns, dtype=np.int64)
        self.policies = policy_set_of(self.agents)
        for a in self.agents:
            if not is_compiled(a) and not callable(getattr(a, "act", None)):
                raise InvalidConfigError(
                    f"agent {agent_label(a)!r} has no act(observations, legal_masks) method "
                    f"and no compiled policy")
        self.kinds = np.array([int(a.kind) if is_compiled(a) else PYTHON for a in self.agents],
                              dtype=np.int64)
        self.params = params_rows(self.agents)

    @property
    def all_compiled(self) -> bool:
        """Whether every agent has a compiled policy, so the table never stops for Python."""
        return bool((self.kinds != PYTHON).all())

    def seats(self) -> table_nb.Seats:
        """Per pattern and seat: the policy kind, parameter row and agent."""
        return table_nb.Seats(self.kinds[self.patterns], self.params[self.patterns],
                              self.patterns)


class Table:
    """Plays items of a run for one game and rules (see the module doc string)."""

    def __init__(self, game, rules, batch: int = BATCH):
        self.game = rules.game
        if game not in (self.game, self.game.name):  # the rules decide; a mismatch is a slip
            raise InvalidConfigError(f"{self.game.title} rules cannot play game {game!r}")
        self.rules = rules
        self.R = rules.pack()
        self.tag = self.game.tag
        self.batch = int(batch)
        self.n_seats = self.game.players(rules)

    def _compiling(self, seating: Seating):
        """Announces a first run's compilation of this table (cardsim.compile_notice)."""
        labels = list(dict.fromkeys(agent_label(a) for a in seating.agents))
        return compiling(f"the {self.game.title} table for {', '.join(labels)}")

    # --- simulation -----------------------------------------------------------------------
    def simulate(self, seating: Seating, seed: int, first: int, n: int, whole: bool,
                 n_threads: int = 1, history: Callable[[np.ndarray], str] | None = None,
                 write: Callable[[str], None] | None = None) -> np.ndarray:
        """Items ``first .. first + n - 1`` with one seating pattern; returns the summed
        statistics. With ``history``, every deal's end state row goes through
        ``history(row) -> line`` and the lines to ``write``, in (item, deal) order."""
        check_agent_rules(seating.agents, self.rules)
        with threads(n_threads), self._compiling(seating):
            if seating.all_compiled and history is None:
                items = table_nb.Items(seed, first, n, bool(whole), False)
                return table_nb.simulate(self.tag, seating.policies, self.R, items,
                                         seating.seats(), self.game.num_stats,
                                         blocks_for(n, n_threads))
            stats = np.zeros(self.game.num_stats, dtype=np.int64)
            for lo in range(first, first + n, self.batch):
                items = np.arange(lo, min(first + n, lo + self.batch), dtype=np.int64)
                rows = _Rows(self, seating, items, np.zeros(len(items), dtype=np.int64), seed,
                             whole, duplicate=False, force=False, n_threads=n_threads)
                if history is None:
                    stats += rows.play(None).sum(axis=0)
                    continue
                lines: list[list[str]] = [[] for _ in items]

                def deal_ended(S, ended, lines=lines):
                    for r in ended:
                        lines[r].append(history(S[r]))

                stats += rows.play(deal_ended).sum(axis=0)
                for per_item in lines:
                    for line in per_item:
                        write(line)
            return stats

    def end_rows(self, seating: Seating, seed: int, first: int, n: int, whole: bool = False,
                 n_threads: int = 1):
        """Items ``first .. first + n - 1`` with one seating pattern, played as ``simulate``
        plays them (the same streams, so the same games); yields ``(lo, S, stats)`` per
        batch of rows: items ``first + lo ..`` in order, the state row each ended in
        (hands mode: the scored deal) and its statistics row (the game's ``S_*`` columns).
        Rules studies read per-deal measures from these (experiments.tournaments.study)."""
        check_agent_rules(seating.agents, self.rules)
        with threads(n_threads), self._compiling(seating):
            for lo in range(0, n, self.batch):
                items = np.arange(first + lo, first + min(n, lo + self.batch), dtype=np.int64)
                rows = _Rows(self, seating, items, np.zeros(len(items), dtype=np.int64), seed,
                             whole, duplicate=False, force=False, n_threads=n_threads)
                stats = rows.play(None)
                yield lo, rows.S, stats

    # --- duplicate play -------------------------------------------------------------------
    def duplicate(self, seating: Seating, seed: int, first: int, n: int, whole: bool,
                  force: bool = False, detail: bool = False, n_threads: int = 1,
                  cost: np.ndarray | None = None):
        """Items ``first .. first + n - 1``, each once per pattern of ``seating``. Returns
        ``table_nb.Results`` (points, wins, deals, labels, seat points) as
        ``table_nb.duplicate``; what each
        agent's decisions cost is added to ``cost`` (a cost record with a row per agent of
        the seating, cardsim.decision_cost_nb) when given."""
        if force and not self.game.item_labels:
            raise InvalidConfigError(f"{self.game.title} has no contracts to force")
        check_agent_rules(seating.agents, self.rules)
        n_agents = len(seating.agents)
        with threads(n_threads), self._compiling(seating):
            if seating.all_compiled:
                items = table_nb.Items(seed, first, n, bool(whole), bool(force))
                return table_nb.duplicate(self.tag, seating.policies, self.R, items,
                                          seating.seats(), n_agents, detail,
                                          blocks_for(n, n_threads), cost)
            P = seating.patterns.shape[0]
            results = table_nb.new_results(n, n_agents, P, detail)
            per_batch = max(1, self.batch // P)
            for lo in range(0, n, per_batch):
                hi = min(n, lo + per_batch)
                local = np.repeat(np.arange(lo, hi, dtype=np.int64), P)
                pattern = np.tile(np.arange(P, dtype=np.int64), hi - lo)
                rows = _Rows(self, seating, first + local, pattern, seed, whole,
                             duplicate=True, force=force, n_threads=n_threads)
                rows.play(None)
                if cost is not None:
                    cost += rows.cost
                table_nb.duplicate_results(self.tag, rows.S, self.R, bool(whole), local,
                                           pattern, seating.patterns, results)
            return results


class _Rows:
    """One batch of games on the row-by-row path."""

    def __init__(self, table: Table, seating: Seating, items, row_pattern, seed, whole,
                 duplicate, force, n_threads):
        g = table.game
        k = len(items)
        self.table, self.seating = table, seating
        self.whole = bool(whole)
        row_pattern = np.ascontiguousarray(row_pattern, dtype=np.int64)
        items = np.ascontiguousarray(items, dtype=np.int64)
        self.rows = table_nb.Rows(
            S=np.zeros((k, g.layout.STATE_WIDTH), dtype=np.int64),
            rng=np.zeros(k, dtype=np.uint64), item=items, pattern=row_pattern,
            status=np.full(k, table_nb.WAITING, dtype=np.int64),
            seats=np.zeros(k, dtype=np.int64), actions=np.full(k, -1, dtype=np.int64),
            stats=np.zeros((k, g.num_stats), dtype=np.int64),
            phase=first_phases(items, row_pattern))  # which decisions are timed
        self.S = self.rows.S
        self.n_blocks = blocks_for(k, n_threads)
        self.seats = seating.seats()
        self.cost = empty_cost(len(seating.agents))  # what each agent's decisions cost
        table_nb.start_rows(table.tag, table.R, self.rows,
                            table_nb.Items(seed, 0, k, self.whole, bool(force)), duplicate)

    def play(self, on_deal_end) -> np.ndarray:
        """Play every row to its end; returns the per-row statistics."""
        t, rows = self.table, self.rows
        pause = on_deal_end is not None
        while True:
            table_nb.advance_rows(t.tag, self.seating.policies, t.R, rows, self.seats,
                                  self.whole, pause, self.n_blocks, self.cost)
            rows.actions[:] = -1
            if pause:
                ended = np.flatnonzero(rows.status == table_nb.DEAL_END)
                if len(ended):
                    on_deal_end(rows.S, ended)
            waiting = np.flatnonzero(rows.status == table_nb.WAITING)
            if len(waiting) == 0:
                if not pause or not (rows.status == table_nb.DEAL_END).any():
                    return rows.stats
                continue
            self._ask(waiting)

    def _ask(self, waiting: np.ndarray) -> None:
        """Each Python agent decides for the waiting games where it is to act."""
        t, r = self.table, self.rows
        who = self.seating.patterns[r.pattern[waiting], r.seats[waiting]]
        for a in np.unique(who):
            rows = waiting[who == a]
            agent = self.seating.agents[a]
            obs = np.zeros((len(rows), t.game.obs_size), dtype=np.float32)
            legal = np.zeros((len(rows), t.game.num_actions), dtype=np.uint8)
            table_nb.observe_rows(t.tag, r.S, t.R, rows, obs, legal)
            view = obs.view(Observations)
            view.engine = EngineRows(t.tag, r.S, t.R, r.rng, rows)
            masks = legal.view(np.bool_)
            start = time.process_time_ns()
            out = _decide(agent, view, masks, int(r.item[rows[0]]), int(r.seats[rows[0]]))
            end = time.process_time_ns()
            # the clock's own cost, as compiled decisions subtract it (cardsim.decision_cost_nb)
            clock = time.process_time_ns() - end
            self.cost[a, [DECISIONS, TIMED, TIMED_NS, CLOCK_NS]] += (len(rows), len(rows),
                                                                    end - start, clock)
            chosen = _as_actions(out, len(rows), agent)
            ok = (chosen >= 0) & (chosen < t.game.num_actions)
            ok[ok] = masks[np.flatnonzero(ok), chosen[ok]]
            if not ok.all():
                j = int(np.flatnonzero(~ok)[0])
                raise IllegalActionError(_illegal_message(t.game, agent, int(chosen[j]),
                                                          int(r.item[rows[j]]),
                                                          int(r.seats[rows[j]]), masks[j]))
            r.actions[rows] = chosen


def _decide(agent, view, masks, item: int, seat: int):
    """``agent.act`` for a batch; an exception of the agent's own code becomes one line
    naming the agent, the (first) deal and the exception (its traceback kept as the cause,
    shown by ``cardsim --debug``)."""
    try:
        return agent.act(view, masks)
    except CardsimError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever a user's agent raises
        why = " ".join(str(e).split())
        raise AgentError(f"agent {agent_label(agent)!r} raised {type(e).__name__}"
                         f"{': ' + why if why else ''} in deal {item} at seat {seat} "
                         f"(cardsim --debug shows the traceback)") from e


def _as_actions(out, n: int, agent) -> np.ndarray:
    """An agent's answer as an int64 array of n actions (numpy, lists, torch tensors)."""
    if hasattr(out, "detach"):  # a torch tensor
        out = out.detach().cpu().numpy()
    try:
        arr = np.asarray(out)
    except Exception:  # noqa: BLE001 - anything that is not an array of actions
        arr = None
    if arr is None or arr.shape != (n,) or not (np.issubdtype(arr.dtype, np.integer)
                                                or (np.issubdtype(arr.dtype, np.floating)
                                                    and np.all(arr == np.round(arr)))):
        raise IllegalActionError(
            f"agent {agent_label(agent)!r} must return {n} integer action ids from act(), "
            f"got {type(out).__name__} {getattr(arr, 'shape', '')}")
    return arr.astype(np.int64)


def _illegal_message(game, agent, action: int, item: int, seat: int, legal) -> str:
    name = game.action_name(action) if 0 <= action < game.num_actions else "no such action"
    allowed = ", ".join(game.action_name(a) for a in np.flatnonzero(legal))
    return (f"agent {agent_label(agent)!r} chose action {action} ({name}) in deal {item} at "
            f"seat {seat}, which is not legal; legal actions: {allowed}")
