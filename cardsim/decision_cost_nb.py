"""What each agent's decisions cost at the table: every decision counted, one in
``SAMPLE_EVERY`` timed.

A *cost record* is an int64 array with a row per agent of a seating and the columns below.
The table's loops (``cardsim.table_nb.play_seats``) add the decisions of compiled seats,
``cardsim.table`` those of Python agents (every batched ``act`` call timed whole); records of
any parts of a run add up to the record of the run (a tournament keeps one per chunk,
experiments.tournaments.tally). ``us_per_decision`` reads an agent's mean from its row.

Why sample: a compiled decision takes from a few hundredths of a microsecond (random play)
to milliseconds (the searches), and a clock read costs 30 ns at best (cardsim.clocks_nb);
timing every decision would double the time of a table of the heuristic and random play. One
decision in ``SAMPLE_EVERY`` is timed, and right after it an *empty interval* (the clock read
twice in a row): each interval holds the clock's own cost once, so the sum of the timed
intervals less the sum of the empty ones, over the number timed, estimates the mean cost of
a decision without bias.

Which decisions: each item and seating pattern starts a *phase* hashed from their numbers,
and every decision adds the golden-ratio step to it modulo 2**32; a decision is timed when
the phase falls in the first 1/SAMPLE_EVERY of the circle. Over the items every decision
position (the first bid, the last card...) is timed with probability 1/SAMPLE_EVERY, where a
plain "every K-th decision" could lock onto a position whenever a deal's decisions come in a
multiple of K. The phase is a counter, not a draw: the games' random streams are untouched,
so the same decisions are timed, and the same games played, whatever the threads or batch.

Which clock (each thread keeps a *timer*: its last checkpoint, and per agent its samples
and how many of them were long):

- The wall clock, for agents whose decisions are short. It is cheap and leaves the caches as
  they were; the thread's CPU clock is a system call after which a decision runs on colder
  caches (measured: random play's 0.15 µs read as 0.3 to 0.8 µs on it). A wall sample under
  ``TRUSTED_NS`` is kept: no switch to other work and back fits in it (a sample whose empty
  interval was interrupted, ``EMPTY_TRUSTED_NS``, is dropped whatever its decision took: the
  rare interruption of so short an interval would only add noise). A longer one may hold
  time the thread spent off its core while other work ran: it is kept only if the thread
  kept its core since its last *checkpoint* (both clocks read together). A checkpoint older
  than ``CHECKPOINT_NS`` (by the last wall reading) is renewed one decision ahead of a timed
  one, so that the system call's colder caches fall on a decision that is not timed, and the
  stretch checked is short.
- The thread's CPU clock, for agents of which one sample in ``LONG_SHARE`` or more was long
  (the searches, whose forced moves are short but whose searched ones take milliseconds):
  time off the core is not counted, and the system call's cost and colder caches are small
  beside such decisions. Deciding by the share, not by the last sample, keeps a search on
  one clock: its long samples, checked against a checkpoint on the wall clock, would be
  dropped more often than its short ones on a busy machine.
"""

import numpy as np
from numba import njit

from cardsim.clocks_nb import DIRECT, thread_cpu_ns, wall_ns
from cardsim.rng_nb import LOW32, stream

# columns of a cost record (one row per agent)
DECISIONS = 0   # decisions taken
TIMED = 1       # of which timed (and kept)
TIMED_NS = 2    # nanoseconds of the timed decisions, the clock's own cost included
CLOCK_NS = 3    # nanoseconds of as many empty intervals (the clock's own cost alone)
COST_WIDTH = 4

SAMPLE_EVERY = 128                      # one decision in this many is timed
PHASE_STEP = 0x9E3779B9                 # 2**32 / golden ratio: the most even spread on the circle
TIMED_BELOW = (1 << 32) // SAMPLE_EVERY
PHASE_KEY = 0x7C0517                    # keys the phase hash apart from the games' streams

# a thread's timer: int64 [checkpoint wall ns, checkpoint CPU ns, the last wall reading, then
# per agent: samples, long samples]
CHECKPOINT_WALL = 0
CHECKPOINT_CPU = 1
LAST_WALL = 2
AGENT_SAMPLES = 3        # + 2 * agent
AGENT_LONG = 4           # + 2 * agent
TRUSTED_NS = 10_000      # a wall sample this short is kept as it is; a longer one is long
# an empty interval is some 30 ns on a clock read directly: one this long was interrupted
EMPTY_TRUSTED_NS = 1_000 if DIRECT else TRUSTED_NS
CHECKPOINT_NS = 200_000  # a checkpoint older than this is renewed: 0.4% of a thread's time
LOST_NS = 5_000          # wall less CPU time since a checkpoint above this: the core was lost
LONG_SHARE = 16          # an agent with one long sample in this many is timed on CPU time


def empty_cost(n_agents: int) -> np.ndarray:
    """A zero cost record for ``n_agents`` agents."""
    return np.zeros((n_agents, COST_WIDTH), dtype=np.int64)


def us_per_decision(row) -> float | None:
    """Mean microseconds per decision from one agent's row of a cost record; None when no
    decision was timed."""
    timed = int(row[TIMED])
    if timed == 0:
        return None
    return (int(row[TIMED_NS]) - int(row[CLOCK_NS])) / timed / 1000.0


@njit(cache=True)
def first_phase(item, pattern):
    """The phase of the first decision of ``item`` under seating ``pattern``: a hash."""
    return np.int64(stream(PHASE_KEY, item, pattern) & LOW32)


@njit(cache=True)
def first_phases(items, patterns):
    """``first_phase`` of every row of a batch."""
    out = np.empty(items.shape[0], dtype=np.int64)
    for i in range(items.shape[0]):
        out[i] = first_phase(items[i], patterns[i])
    return out


@njit(cache=True, inline="always")
def is_timed(phase):
    """Whether the decision at ``phase`` is timed."""
    return phase < TIMED_BELOW


@njit(cache=True, inline="always")
def next_phase(phase):
    """The phase of the next decision."""
    return (phase + PHASE_STEP) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def _checkpoint(timer, cpu):
    timer[CHECKPOINT_CPU] = cpu
    timer[CHECKPOINT_WALL] = timer[LAST_WALL] = wall_ns()


@njit(cache=True)
def new_timer(n_agents):
    """A thread's timer for ``n_agents`` agents, none sampled yet, checkpointed now."""
    timer = np.zeros(AGENT_SAMPLES + 2 * n_agents, dtype=np.int64)
    _checkpoint(timer, thread_cpu_ns())
    return timer


@njit(cache=True, inline="always")
def on_cpu_clock(timer, agent):
    """Whether ``agent``'s decisions are timed on the thread's CPU clock."""
    long = timer[AGENT_LONG + 2 * agent]
    return long > 0 and long * LONG_SHARE >= timer[AGENT_SAMPLES + 2 * agent]


@njit(cache=True, inline="always")
def renew_checkpoint(timer):
    """Before the decision ahead of a timed one: a checkpoint, if the last is old by the
    last wall reading (no clock is read otherwise)."""
    if timer[LAST_WALL] - timer[CHECKPOINT_WALL] > CHECKPOINT_NS:
        _checkpoint(timer, thread_cpu_ns())


@njit(cache=True, inline="always")
def start_timing(timer, agent):
    """The reading of ``agent``'s clock as its timed decision starts."""
    if on_cpu_clock(timer, agent):
        return thread_cpu_ns()
    return wall_ns()


@njit(cache=True)
def end_timing(timer, cost, agent, start):
    """Close the timing of ``agent``'s decision begun at ``start`` (``start_timing``): read
    its clock, then an empty interval, and add both to row ``agent`` of cost record ``cost``
    unless the sample is not to be trusted (module doc string)."""
    if on_cpu_clock(timer, agent):
        end = thread_cpu_ns()
        after = thread_cpu_ns()
        _checkpoint(timer, after)
        long = (end - start) - (after - end) >= TRUSTED_NS
        keep = True
    else:
        end = wall_ns()
        after = wall_ns()
        timer[LAST_WALL] = after
        long = end - start >= TRUSTED_NS
        keep = after - end < EMPTY_TRUSTED_NS
        if long:
            cpu = thread_cpu_ns()
            lost = (wall_ns() - timer[CHECKPOINT_WALL]) - (cpu - timer[CHECKPOINT_CPU])
            _checkpoint(timer, cpu)
            keep = keep and lost <= LOST_NS
    timer[AGENT_SAMPLES + 2 * agent] += 1
    if long:
        timer[AGENT_LONG + 2 * agent] += 1
    if keep:
        cost[agent, TIMED] += 1
        cost[agent, TIMED_NS] += end - start
        cost[agent, CLOCK_NS] += after - end
