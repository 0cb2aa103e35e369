"""Where the chunks of a run are played: here, with numba threads, or as tasks on Ray.

A run is cut into seeded chunks of items that can be played anywhere and in any order (the
chance of item ``i`` is keyed by the seed and ``i``, and tallies merge in any order), so the
executor is only a way of getting ``play(context, task, n_threads)`` called for every task:

    with executor_for(cfg.executor, cfg.ray, cfg.threads) as ex:
        for task, result in ex.map(play, context, tasks):
            ...  # persist and merge in the driver

``play`` is a module-level function and ``context`` what every task shares (the tournament
plan, a ``SimulationJob``), picklable: Ray stores it once and every task reads it. The driver
persists and merges what comes back, so a Ray run writes exactly the run directory a local
run writes.

``LocalExecutor`` plays the tasks in order in this process with ``threads`` numba threads.
``RayExecutor`` submits each task as a Ray task (one CPU, one numba thread each; retried when
its worker dies), keeps a bounded number in flight, and hands results back as they finish
(or in task order with ``ordered=True``, for outputs written as one stream). ``import ray``
happens only when a Ray executor is entered: cardsim runs without the package.
"""

from __future__ import annotations

import re
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from cardsim.errors import CardsimError, InvalidConfigError
from experiments.runs.schema import check_known

EXECUTORS = ("local", "ray")
MAX_RETRIES = 3            # reruns of a chunk whose Ray worker died (task errors are not retried)
CONNECT_TIMEOUT_S = 5.0    # a head that does not answer in this time is reported unreachable
RAY_INSTALL = "pip install 'cardsim[ray]'"


class ExecutorError(CardsimError):
    """The Ray executor cannot be used (package missing, cluster unreachable) or lost a chunk
    for good."""


@dataclass
class LocalExecutor:
    """Every task in this process, in order, with ``threads`` numba threads."""

    threads: int = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def map(self, play: Callable, context: Any, tasks: Iterable,
            ordered: bool = False) -> Iterator[tuple[Any, Any]]:
        """Play every task in order here: yields ``(task, play(context, task, threads))``.
        ``ordered`` is accepted for the executors' common signature (the order is always the
        tasks')."""
        for task in tasks:
            yield task, play(context, task, self.threads)


def _play_remote(job, task):
    """The body of every Ray task: ``job`` is the (play, context) pair, put once. Returns the
    task's result and the seconds numba spent compiling in it: 0.0 when the worker found every
    kernel in memory or in the compiled cache (cardsim.compile_cache), as a warm worker does."""
    from cardsim.compile_notice import compiling

    play, context = job
    with compiling("a Ray task", quiet=True) as notice:
        result = play(context, task, 1)
    return result, notice.total


class RayExecutor:
    """Tasks on a Ray cluster: ``address`` as ``ray.init`` takes it (None: an existing local
    instance or a new one; "auto": the cluster this machine belongs to; "host:port" or
    "ray://host:port"). ``num_workers``: tasks in flight at once (default: twice the cluster's
    CPUs, so that no CPU waits on the driver between tasks).

    What the start cost, kept for reports: ``startup_s`` (connecting, or starting a local
    instance; 0.0 when this process was already on a cluster), ``first_result_s`` (from the
    start of the last ``map`` to its first result back here), ``compile_s`` (seconds the
    workers spent compiling, summed over tasks; 0.0 when every worker loaded the kernels
    from the cache) and ``tasks_compiled`` (tasks that compiled anything).

    When the cluster is this machine alone (a local instance), the first task of each ``map``
    is played in this process: the workers share this machine's compiled cache, so the
    kernels are compiled once, here, and loaded by the workers, instead of compiled by every
    worker at once."""

    def __init__(self, address: str | None = None, num_workers: int | None = None,
                 max_retries: int = MAX_RETRIES):
        self.address = address
        self.num_workers = num_workers
        self.max_retries = max_retries
        self.ray = None
        self._started = False
        self.startup_s = 0.0
        self.first_result_s = None
        self.compile_s = 0.0
        self.tasks_compiled = 0

    def __enter__(self):
        self.ray = import_ray()
        check_reachable(self.address)
        t0 = time.perf_counter()
        if not self.ray.is_initialized():  # else: this process is already on a cluster
            try:
                self.ray.init(address=self.address, include_dashboard=False,
                              log_to_driver=False, logging_level="error")
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise ExecutorError(f"cannot connect to Ray at {self.address or 'local'}: "
                                    f"{' '.join(str(e).split())}") from None
            self._started = True
        self.startup_s = time.perf_counter() - t0
        return self

    def __exit__(self, *exc):
        # disconnect what __enter__ connected (stopping a local instance it started); a
        # process that was already on a cluster stays on it
        if self._started:
            self.ray.shutdown()
            self._started = False

    def in_flight(self) -> int:
        """Tasks kept in flight at once: ``num_workers``, else twice the cluster's CPUs."""
        if self.num_workers is not None:
            return self.num_workers
        return max(1, 2 * int(self.ray.cluster_resources().get("CPU", 1)))

    def map(self, play: Callable, context: Any, tasks: Iterable,
            ordered: bool = False) -> Iterator[tuple[Any, Any]]:
        """Play every task as a Ray task: yields ``(task, result)`` as tasks finish (in task order
        with ``ordered``), keeping ``in_flight()`` tasks submitted. Tasks not yet handed back are
        cancelled when the caller stops early. Raises ``ExecutorError`` when a chunk is lost for
        good (its worker died ``max_retries`` times)."""
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=self.max_retries,
                            retry_exceptions=False)(_play_remote)
        t0 = time.perf_counter()
        self.first_result_s = None
        todo = iter(tasks)
        if self._workers_share_this_machine():
            # The workers share this machine's compiled cache. The first task is played
            # here, so what it needs is compiled once (or loaded) before the workers start,
            # instead of by every worker at the same time.
            task = next(todo, None)
            if task is None:
                return
            result = play(context, task, 1)
            self.first_result_s = time.perf_counter() - t0
            yield task, result
        job = ray.put((play, context))
        submitted: list = []   # (ref, task) in task order
        limit = self.in_flight()
        try:
            while True:
                while len(submitted) < limit:
                    task = next(todo, None)
                    if task is None:
                        break
                    submitted.append((remote.remote(job, task), task))
                if not submitted:
                    return
                if ordered:  # the oldest task next; the others keep running meanwhile
                    i = 0
                else:        # whichever finishes first: it is persisted at once
                    ready, _ = ray.wait([ref for ref, _ in submitted], num_returns=1)
                    i = next(k for k, (ref, _) in enumerate(submitted) if ref == ready[0])
                ref, task = submitted[i]
                result, compiled_s = self._get(ref, task)
                del submitted[i]
                if self.first_result_s is None:
                    self.first_result_s = time.perf_counter() - t0
                self.compile_s += compiled_s
                self.tasks_compiled += compiled_s > 0
                yield task, result
        finally:
            for ref, _ in submitted:  # stopped early (an error, an interrupt): drop the rest
                ray.cancel(ref, force=True)

    def _workers_share_this_machine(self) -> bool:
        """Whether the cluster's only live node is this process's own (a local instance, not
        a Ray Client connection): its workers then read this machine's compiled cache."""
        if self.address is not None and self.address.startswith("ray://"):
            return False
        alive = [node for node in self.ray.nodes() if node.get("Alive")]
        return (len(alive) == 1
                and alive[0].get("NodeID") == self.ray.get_runtime_context().get_node_id())

    def _get(self, ref, task):
        return ray_get(self.ray, ref, lambda e: (
            f"chunk {task} was lost on Ray after {self.max_retries} retries "
            f"({type(e).__name__}); finished chunks are kept, resume the run"))


def ray_get(ray, refs, lost: Callable[[Exception], str]):
    """``ray.get(refs)``. A remote task's own error is raised as if it ran here; a task or
    actor Ray lost (its retries spent) is an ``ExecutorError`` with the message ``lost(e)``."""
    try:
        return ray.get(refs)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        raise (cause if isinstance(cause, Exception) else e) from None
    except ray.exceptions.RayError as e:
        raise ExecutorError(lost(e)) from None


def import_ray():
    """The ``ray`` module, imported only when a Ray executor is used; raises ``ExecutorError``
    saying how to install it when it is missing."""
    try:
        import ray
    except ImportError:
        raise ExecutorError(f"the Ray executor needs the ray package, which is not "
                            f"installed; install it with {RAY_INSTALL}") from None
    return ray


_HOST_PORT = re.compile(r"^(?:ray://)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$")


def check_address(address: str | None) -> str | None:
    """An address as ``--ray`` and ``ray.address`` take it: None (local), "auto", or
    [ray://]host:port. Anything else is an error naming what is allowed."""
    if address is None or address == "auto":
        return address
    m = _HOST_PORT.match(address) if isinstance(address, str) else None
    if m is None or not 0 < int(m.group(2)) < 65536:
        raise InvalidConfigError(f"Ray address {address!r} is not valid; allowed: auto, "
                                 f"HOST:PORT or ray://HOST:PORT (or none: a local instance)")
    return address


def check_reachable(address: str | None) -> None:
    """Fail fast, in one line, on a head that does not answer: ``ray.init`` itself keeps
    retrying an unreachable address for minutes."""
    if address is None or address == "auto":
        return
    m = _HOST_PORT.match(address)
    host, port = m.group(1).strip("[]"), int(m.group(2))
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise ExecutorError(f"cannot reach a Ray cluster at {address} ({reason}); start one "
                            f"with 'ray start --head' or give its address") from None


RAY_KEYS = ("address", "num_workers")


def check_executor_keys(executor: str, ray: Any) -> None:
    """A config's ``executor`` is one of ``EXECUTORS``, and a ``ray:`` mapping comes only
    with ``executor: ray``."""
    if executor not in EXECUTORS:
        raise InvalidConfigError(f"config key 'executor' has invalid value {executor!r}; "
                                 f"allowed: {', '.join(EXECUTORS)}")
    if ray and executor != "ray":
        raise InvalidConfigError("config key 'ray' is read with executor: ray only; set "
                                 "executor: ray or remove it")


def check_ray_options(options: Any, where: str = "config key 'ray'",
                      counts: tuple[str, ...] = ()) -> dict:
    """The ``ray:`` mapping of a config: address and num_workers, both optional, and the
    positive integers ``counts`` a kind of run adds (training: weights_every)."""
    if options is None:
        return {}
    keys = RAY_KEYS + counts
    if not isinstance(options, dict):
        raise InvalidConfigError(f"{where} must be a mapping with keys {', '.join(keys)}")
    check_known(options, keys, "key", where)
    for key in ("num_workers", *counts):
        value = options.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise InvalidConfigError(f"{where}: {key} has invalid value {value!r}; "
                                     f"allowed: a positive integer (or leave it out)")
    check_address(options.get("address"))
    return dict(options)


def executor_for(name: str = "local", ray: dict | None = None, threads: int = 1):
    """The executor a run's config names: ``local`` (threads) or ``ray`` (its options)."""
    if name == "local":
        return LocalExecutor(threads)
    if name == "ray":
        ray = ray or {}
        return RayExecutor(ray.get("address"), ray.get("num_workers"))
    raise InvalidConfigError(f"executor {name!r} is not known; allowed: "
                             f"{', '.join(EXECUTORS)}")
