"""Duplicate-deal tournaments: agents compared on the same cards, seats rotated.

For every pairing of agents (all pairs: a round robin for three or more) each game or deal is
played once per *seating pattern*: with 2 seats or 2 teams the agents swap places; with 3 or 4
individual seats each agent takes each seat alone against the other agent in the remaining
seats. Luck of the cards then cancels between the agents of a pairing. Per deal (item) an
agent scores the mean recorded points of the seats it held, averaged over the patterns; the
difference between two agents is paired by item, so its 95% interval is narrow.

Barbu ``by_contract``: item ``i`` plays contract ``i % 7`` in every pattern (the declarer's
choice is taken away), and the result gives the difference per contract.

Without duplicate (``--no-duplicate``), each item is played once, the seating patterns taken
in turn over the items; the interval of the difference is then much wider.

Besides points, every agent's cost as played: its decisions (over its seats, pairings and
items) and its mean microseconds per decision, from the table's cost records
(cardsim.decision_cost_nb: compiled decisions sampled, Python agents' batched calls timed
whole). The times are measurements, the one part of a result that varies from run to run.
"""

from __future__ import annotations

import itertools
from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from agents.registry import make_agent, parse_spec
from cardsim import games
from cardsim.games import Game
from cardsim.decision_cost_nb import DECISIONS, empty_cost, us_per_decision
from cardsim.errors import InvalidConfigError
from cardsim.table import Seating, Table, agent_label
from experiments.runs.limits import check_count
from experiments.runs.files import atomic_write_json, check_output_file
from experiments.tournaments.per_deal import PerDealWriter, per_deal_config_path, per_deal_rows
from experiments.runs.progress import progress_bar
from experiments.tournaments.stats import Moments
from experiments.tournaments.tally import (A, B, DIFF, SAMPLE_ITEMS, ChunkTally, PairingTally,
                                           points_scale)

TIMES = ("us_per_decision",)       # per agent: measured anew by every run
RATING_GAMES_PER_PAIRING = 10_000  # outcomes fed to the rating per pairing (first ones)
assert RATING_GAMES_PER_PAIRING <= SAMPLE_ITEMS  # the ratings read the tally's sample
CHUNK = 1 << 15                    # items per compiled call


def seating_patterns(rules, a: int, b: int) -> np.ndarray:
    """Rows: agent index per seat. Teams and 2 players: the two swaps; otherwise each agent
    alone in each seat against the other agent in every other seat."""
    g = rules.game
    n = g.players(rules)
    if g.sides(rules) == 2:
        rows = [[a if g.side_of(rules, s) == 0 else b for s in range(n)],
                [b if g.side_of(rules, s) == 0 else a for s in range(n)]]
    else:
        rows = []
        for lone, rest in ((a, b), (b, a)):
            for j in range(n):
                rows.append([lone if s == j else rest for s in range(n)])
    return np.array(rows, dtype=np.int64)


@dataclass
class Pairing:
    """Two agents of a tournament, by index ``a`` and ``b`` in its agent list, the seating
    ``patterns`` they play (``patterns[p, seat]`` = agent index) and the merged ``tally`` of their
    items so far."""
    a: int
    b: int
    patterns: np.ndarray
    tally: PairingTally


class Tournament:
    """A tournament plan: agents, pairings, items; played chunk by chunk. Only each chunk's
    tally is kept (experiments.tournaments.tally): memory does not grow with the number of items."""

    def __init__(self, game: str, rules, agent_specs, deals: int | None = None,
                 games: int | None = None, duplicate: bool = True, seed: int = 0,
                 by_contract: bool = False):
        if deals is not None and games is not None:
            raise InvalidConfigError("give either deals or games, not both")
        if by_contract and (not rules.game.item_labels or games is not None or not duplicate):
            raise InvalidConfigError("by_contract needs Barbu, single deals and duplicate play")
        self.by_contract = by_contract
        self.game, self.rules, self.seed = game, rules, seed
        self.whole = games is not None
        self.items = games if self.whole else (deals if deals is not None else 10_000)
        check_count("games" if self.whole else "deals", self.items, "tournament")
        self.duplicate = duplicate
        for spec in agent_specs:  # "random,heuristic": the hint to separate them comes first
            if isinstance(spec, str):
                parse_spec(spec)
        if len(agent_specs) < 2:
            raise InvalidConfigError("a tournament needs at least 2 agents")
        self.agents = [make_agent(s, game, rules) for s in agent_specs]
        # the specs as given, when every agent is named by one (what can be played again)
        self.specs = list(agent_specs) if all(isinstance(s, str) for s in agent_specs) \
            else None
        self.labels = unique_labels([agent_label(a) for a in self.agents])
        self.groups = 1 + (len(rules.game.item_labels) if by_contract else 0)
        self.pairings = [Pairing(a, b, seating_patterns(rules, a, b),
                                 PairingTally(self.groups, self.items))
                         for a, b in itertools.combinations(range(len(self.agents)), 2)]
        if len(self.pairings) > 1:  # every pairing plays every item
            check_count(f"{'games' if self.whole else 'deals'} x {len(self.pairings)} "
                        f"pairings", self.items * len(self.pairings), "tournament")
        self.table = Table(rules.game, rules)

    def chunks(self, chunk: int = CHUNK):
        """(pairing index, lo, hi) of every chunk of work, in a fixed order."""
        for k in range(len(self.pairings)):
            for lo in range(0, self.items, chunk):
                yield k, lo, min(self.items, lo + chunk)

    def play_chunk(self, k: int, lo: int, hi: int, n_threads: int = 1,
                   cost: np.ndarray | None = None):
        """Play items lo..hi-1 of pairing k; returns the per-item arrays
        (points, wins, deals[, contracts]). What the decisions of agents a and b cost is
        added to rows 0 and 1 of ``cost`` (a cost record, cardsim.decision_cost_nb) when
        given."""
        pairing = self.pairings[k]
        agents = [self.agents[pairing.a], self.agents[pairing.b]]
        local = np.where(pairing.patterns == pairing.a, 0, 1).astype(np.int64)
        if self.by_contract:  # Barbu: item i plays contract i % 7 in every pattern
            points, wins, deals, labels, _ = self.table.duplicate(
                Seating(agents, local), self.seed, lo, hi - lo, self.whole, force=True,
                detail=True, n_threads=n_threads, cost=cost)
            return points, wins, deals, labels[:, 0]
        if self.duplicate:
            return self.table.duplicate(Seating(agents, local), self.seed, lo, hi - lo,
                                        self.whole, n_threads=n_threads, cost=cost)[:3]
        # each item played once: the chunk is cut into one contiguous share per seating
        # pattern, so the patterns are taken in turn
        P = local.shape[0]
        parts = [[], [], []]
        for p in range(P):
            a = lo + (hi - lo) * p // P
            b = lo + (hi - lo) * (p + 1) // P
            if b > a:
                r = self.table.duplicate(Seating(agents, local[p:p + 1]), self.seed, a, b - a,
                                         self.whole, n_threads=n_threads, cost=cost)
                for part, x in zip(parts, r):
                    part.append(x)
        return tuple(np.concatenate(part) for part in parts)

    def tally_chunk(self, k: int, lo: int, hi: int, result, cost=None) -> ChunkTally:
        """The sufficient statistics of a chunk's per-item arrays (``play_chunk``) and of
        the cost of its decisions (``play_chunk``'s record, if kept)."""
        p = self.pairings[k]
        # whole games average over a varying number of deals: no common denominator
        scale = 0 if self.whole else points_scale(p.patterns, p.a, p.b)
        return ChunkTally.from_items(lo, hi, *result[:3],
                                     contracts=result[3] if len(result) > 3 else None,
                                     groups=self.groups, scale=scale, cost=cost)

    def add_chunk(self, k: int, tally: ChunkTally) -> None:
        """Merge the tally of a chunk of pairing ``k`` (chunks in any order)."""
        self.pairings[k].tally.add(tally)

    def run(self, n_threads: int = 1, progress: bool = False, per_deal=None,
            executor=None, overwrite: bool = False) -> dict:
        """Play every chunk and return the result; ``per_deal``: a path for the per-deal
        rows (experiments.tournaments.per_deal), streamed as chunks finish, and beside it, when
        every agent was given by a spec, the tournament's config (``per_deal_config_path``: what
        plays its deals again); ``executor``: where the
        chunks are played (experiments.runs.executor; default here, with ``n_threads``). An
        existing ``per_deal`` file is refused unless ``overwrite``."""
        from experiments.runs.executor import LocalExecutor

        total = len(self.pairings) * self.items
        if per_deal is not None:
            check_output_file(per_deal, "per-deal file", overwrite)
            if self.specs is not None:
                check_output_file(per_deal_config_path(per_deal), "per-deal config file",
                                  overwrite)
        executor = LocalExecutor(n_threads) if executor is None else executor
        with (PerDealWriter(per_deal, total) if per_deal is not None else nullcontext()) \
                as writer, progress_bar(total, progress, "item", what="tournament") as bar, \
                executor as ex:
            # the per-deal file is one stream in chunk order; tallies merge in any order
            for (k, lo, hi), (tally, rows) in ex.map(play_chunk_tally, (self, writer is not None),
                                                     self.chunks(), ordered=writer is not None):
                if writer is not None:
                    writer.write(rows)
                self.add_chunk(k, tally)
                bar.update(hi - lo)
        if per_deal is not None and self.specs is not None:
            atomic_write_json(per_deal_config_path(per_deal), self.config())
        return self.result()

    def config(self) -> dict:
        """The tournament as an experiment file's keys (``kind: tournament``): what plays
        its deals again (agent specs, rules, seed, items, seating); None-free."""
        out = {"name": "tournament", "kind": "tournament", "game": self.game,
               "rules": self.rules.to_dict(), "agents": list(self.specs or []),
               "games" if self.whole else "deals": self.items,
               "duplicate": self.duplicate, "seed": self.seed}
        if self.by_contract:
            out["by_contract"] = True
        return out

    # --- results ---------------------------------------------------------------------------
    def agent_moments(self, i: int) -> Moments:
        """Agent i's points per item over all its pairings."""
        out = Moments()
        for p in self.pairings:
            for j, agent in ((A, p.a), (B, p.b)):
                if agent == i:
                    out += p.tally.moments[0][j]
        return out

    def agent_cost(self, i: int) -> np.ndarray | None:
        """Agent i's cost record row over all its pairings (cardsim.decision_cost_nb); None
        when a chunk was kept without one (a run directory from before they were kept)."""
        out = empty_cost(1)[0]
        for p in self.pairings:
            for j, agent in ((A, p.a), (B, p.b)):
                if agent == i:
                    if p.tally.costless:
                        return None
                    out += p.tally.cost[j]
        return out

    def result(self) -> dict:
        """Per agent: mean points per deal with 95% CI, win rate, decisions taken and mean
        microseconds per decision; per pairing: the difference with its CI; a rating for
        three or more agents. An interval of fewer than 2 items, and a time where no decision
        was timed, is None."""
        unit = "game" if self.whole else "deal"
        rows = []
        pair_rows = []
        for p in self.pairings:
            t = p.tally
            if not t.n:
                continue
            diff, half = t.moments[0][DIFF].mean_ci()
            pair_rows.append({
                "agents": [self.labels[p.a], self.labels[p.b]],
                "items": t.n,
                "deals_played": t.deals,
                "mean_points": [t.moments[0][A].mean(), t.moments[0][B].mean()],
                "difference": diff,
                "difference_ci95": half,
                "significant": half is not None and abs(diff) > half,
                "win_rate": t.win_rates() if self.whole else None,
                "by_contract": _by_contract(self.rules.game, t) if self.by_contract else None,
            })
        for i, label in enumerate(self.labels):
            m = self.agent_moments(i)
            if not m.n:
                continue
            mean, half = m.mean_ci()
            wins = sum((p.tally.wins[j] for p in self.pairings
                        for j, agent in ((A, p.a), (B, p.b)) if agent == i), Fraction(0))
            cost = self.agent_cost(i)
            rows.append({
                "agent": label,
                "spec": None if self.specs is None else self.specs[i],
                "items": m.n,
                "points_per_deal": mean,
                "ci95": half,
                "win_rate": float(wins / m.n) if self.whole else None,
                "decisions": None if cost is None else int(cost[DECISIONS]),
                "us_per_decision": None if cost is None else us_per_decision(cost),
            })
        out = {
            "game": self.game,
            "rules": self.rules.to_dict(),
            "rules_hash": self.rules.rules_hash(),
            "seed": self.seed,
            "duplicate": self.duplicate,
            "by_contract": self.by_contract,
            "unit": unit,
            "items": self.items,
            "agents": rows,
            "pairings": pair_rows,
            "ratings": self._ratings() if len(self.agents) >= 3 else None,
        }
        return out

    def _ratings(self) -> list[dict] | None:
        """OpenSkill (Plackett-Luce) ratings from the first games of every pairing, taken in
        turn: the agent with more points on an item wins it, equal points draw."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = [model.rating(name=label) for label in self.labels]
        series = []
        for p in self.pairings:
            if p.tally.sample is None:
                continue
            pts = p.tally.sample[:RATING_GAMES_PER_PAIRING]
            pts = pts[:np.argmax(np.isnan(pts[:, 0]))] if np.isnan(pts[:, 0]).any() else pts
            if len(pts):
                series.append((p.a, p.b, np.sign(pts[:, 0] - pts[:, 1])))
        if not series:
            return None
        longest = max(len(s[2]) for s in series)
        for t in range(longest):
            for a, b, sign in series:
                if t < len(sign):
                    ranks = [0, 1] if sign[t] > 0 else ([1, 0] if sign[t] < 0 else [0, 0])
                    [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]],
                                                              ranks=ranks)
        return sorted(({"agent": r.name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
                       for r in ratings), key=lambda r: -r["ordinal"])


def without_times(result: dict) -> dict:
    """``result`` (or a run's summary.json) less what a clock measured: each agent's
    microseconds per decision, ``table`` (the text printed with them) and ``decision_cost``.
    What is left, every run of the same tournament reports alike, whatever its threads,
    chunks, executor or resumes."""
    out = {k: v for k, v in result.items() if k not in ("table", "decision_cost")}
    out["agents"] = [{k: v for k, v in row.items() if k not in TIMES}
                     for row in result["agents"]]
    return out


def play_chunk_tally(context, task, n_threads: int = 1):
    """What one chunk of a tournament sends back, wherever it is played (experiments.runs.executor):
    ``context`` is (tournament, per-deal rows wanted), ``task`` (pairing, lo, hi). Returns the
    chunk's tally and its per-deal rows (or None)."""
    t, with_rows = context
    k, lo, hi = task
    cost = empty_cost(2)
    result = t.play_chunk(k, lo, hi, n_threads, cost)
    rows = per_deal_rows(k, lo, *result) if with_rows else None
    return t.tally_chunk(k, lo, hi, result, cost), rows


def _by_contract(game: Game, t: PairingTally) -> list[dict]:
    """Per Barbu contract: items, both agents' mean deal scores, the difference and its CI."""
    rows = []
    for c, name in enumerate(game.item_labels):
        m = t.moments[c + 1]
        if m[A].n:
            diff, half = m[DIFF].mean_ci()
            rows.append({"contract": name, "items": m[A].n,
                         "mean_points": [m[A].mean(), m[B].mean()],
                         "difference": diff, "difference_ci95": half})
    return rows


def unique_labels(labels: list[str], mark: str = "#") -> list[str]:
    """``labels`` with each repeat numbered (``heuristic``, ``heuristic#2``, ...)."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label}{mark}{seen[label]}")
    return out


def tournament(game: str, rules, agent_specs, *, deals=None, games=None, duplicate=True,
               seed: int = 0, n_threads: int = 1, progress: bool = False,
               by_contract: bool = False, per_deal=None, executor=None,
               overwrite: bool = False) -> dict:
    """Play a tournament and return its result (see Tournament.result); ``per_deal``: a
    path where the per-deal rows are written (experiments.tournaments.per_deal), an existing one
    only with ``overwrite``; ``executor``: where the chunks are played (experiments.runs.executor;
    default here, with ``n_threads``).

    Args:
        game: ``"debertz"`` or ``"barbu"``.
        rules: the game's rules object.
        agent_specs: two or more agent specs or agent objects; every pair meets.
        deals: deals per pairing (give ``deals`` or ``games``).
        games: whole games (Barbu: 28-deal matches) per pairing.
        duplicate: replay each item with the agents rotated through the seats.
        seed: the seed; results depend on it and on what is played, never on the threads
            or the executor.
        by_contract: Barbu only: deal ``i`` plays contract ``i % 7``.

    Returns:
        The result dict that ``--json`` prints and ``format_table`` formats: per agent its
        mean points per deal with the 95% half-width, win rate, decisions and mean
        microseconds per decision (``us_per_decision``, measured: ``without_times`` leaves
        it out), per pairing the paired difference with its half-width, and ratings for
        three or more agents.

    Raises:
        InvalidConfigError: bad agents, counts, seed or per-deal path.
        AgentError: a Python agent raised an exception.
        IllegalActionError: a Python agent chose an illegal action.
    """
    return Tournament(game, rules, agent_specs, deals, games, duplicate, seed,
                      by_contract).run(n_threads, progress, per_deal, executor, overwrite)


def format_table(result: dict) -> str:
    """The result as a text table."""
    unit = result["unit"]
    head = (f"{result['game']} tournament, {result['items']:,} "
            f"{'duplicate ' if result['duplicate'] else ''}{unit}s per pairing, seed "
            f"{result['seed']}, rules {result['rules_hash']}")
    lines = [head, ""]
    width = max(len(r["agent"]) for r in result["agents"]) + 2
    has_wins = result["agents"][0]["win_rate"] is not None
    lines.append(f"{'agent':<{width}}{'points/deal':>12}{'95% CI':>10}"
                 + (f"{'win rate':>10}" if has_wins else "")
                 + f"{'decisions':>15}{'µs/decision':>13}")
    for r in result["agents"]:
        lines.append(f"{r['agent']:<{width}}{r['points_per_deal']:>12.2f}{'±':>4}"
                     f"{_num(r['ci95']):<6}" + (f"{r['win_rate']:>10.3f}" if has_wins else "")
                     + f"{_count(r.get('decisions')):>15}{_time(r.get('us_per_decision')):>13}")
    if has_wins:
        rules = games.rules_of(result["game"], result["rules"])
        sides = rules.game.sides(rules)
        if sides > 2:  # every player for themselves: an even agent wins 1 game in `sides`
            lines.append(f"win rate: share of games won by the seats an agent held; with "
                         f"{sides} players each for themselves {1 / sides:.3f} is even")
    lines.append("")
    for p in result["pairings"]:
        a, b = p["agents"]
        mark = "" if p["significant"] else "  (not significant)"
        lines.append(f"{a} - {b}: {p['difference']:+.2f} ± {_num(p['difference_ci95'])} points "
                     f"per deal (95% CI, paired over {p['items']:,} {unit}s){mark}")
        by_contract = p.get("by_contract") or []
        w = max(10, len(a) + 2, len(b) + 2)
        if by_contract:  # points per deal of each agent, then their paired difference
            lines.append(f"    {'contract':<12}{a:>{w}}{b:>{w}}   difference (95% CI)")
        for row in by_contract:
            ma, mb = row["mean_points"]
            lines.append(f"    {row['contract']:<12}{ma:>{w}.2f}{mb:>{w}.2f}   "
                         f"{row['difference']:+7.2f} ± {_num(row['difference_ci95'])} "
                         f"({row['items']:,} deals)")
    if result.get("ratings"):
        lines.append("")
        lines.append("OpenSkill ratings (mu - 3 sigma), from items won, not points: an agent "
                     "that wins often by little and")
        lines.append("loses rarely by much can rate above one with more points per deal.")
        for r in result["ratings"]:
            lines.append(f"  {r['agent']:<{width}}{r['ordinal']:8.2f}  (mu {r['mu']:.2f}, "
                         f"sigma {r['sigma']:.2f})")
    return "\n".join(lines)


def _num(x) -> str:
    """A table cell: two decimals, or "-" where there is no value (an interval of one)."""
    return "-" if x is None else f"{x:.2f}"


def _count(x) -> str:
    """A count cell with thousands separators, or "-" where there is none."""
    return "-" if x is None else f"{x:,}"


def _time(us) -> str:
    """A time cell in microseconds: three significant figures (from a tenth of a microsecond
    for random play to milliseconds for a search), or "-" where nothing was timed."""
    if us is None:
        return "-"
    return f"{us:,.0f}" if abs(us) >= 100 else f"{us:.3g}"
