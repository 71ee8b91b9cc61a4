"""Where tasks run: a Dask.distributed cluster.

With an address (`--cluster tcp://host:8786`, or Dask's own
`DASK_SCHEDULER_ADDRESS` / `scheduler-address` setting) the tasks go to a
running cluster; without one a local cluster of this machine's cores is
started for the run and stopped after it.  Each task is one function call on
a worker; the data every task shares (the variant's text) goes to the
cluster once, as the result of a task of its own, and each worker fetches it
once.  (Not scattered: the scheduler makes a task's result again when the
workers that held it die, but not scattered data, and Dask keeps no promise
to leave a scattered copy on every worker.)

Every wait on the network is bounded, so that a wrong address is a clear
error within seconds, never a hang: the address is checked first
(`address`); the host name is looked up and the port connected to within
Dask's `distributed.comm.timeouts.connect`; the scheduler must answer Dask's
handshake within `HANDSHAKE_WAIT`; the workers asked for must arrive within
the worker wait.  Tasks are sent a few per worker at a time
(`IN_FLIGHT_PER_WORKER`), more as each finishes, so that a long run holds
little memory and stops at once.

A task whose worker dies is run again elsewhere by Dask (up to its
`distributed.scheduler.allowed-failures` setting); a task that still does
not come back is reported as a `Lost` result, and the other tasks go on.
A lost scheduler, or a cluster left without workers for the worker wait,
ends the run with `ClusterLost`.

Dask is imported only here and only when a cluster is asked for, so the
rest of variantkit works without the optional extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import queue
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from variantkit.analysis.address import AddressError, SchedulerAddress, parse_address
from variantkit.errors import quote, shorten

INSTALL_HINT = "pip install 'variantkit[cluster]'"
WAIT_FOR_WORKERS = 60.0    # seconds to wait for the workers a run needs on a running cluster
HANDSHAKE_WAIT = 10.0      # seconds a scheduler has to answer once connected (it takes ms)
CLOSE_WAIT = 2.0           # seconds to wait for a cluster connection to close
IN_FLIGHT_PER_WORKER = 3   # tasks sent ahead per worker: enough that none waits for work
POLL = 0.5                 # seconds between looks at the cluster while tasks run
WORKER_POLL = 0.2          # seconds between looks while waiting for workers
WORDS = 200                # characters of a message from Dask or the network shown
LOCAL_PER_CORE = 2         # more local worker processes than this only share the cores
WORKER_LOGGING = "DASK_LOGGING__DISTRIBUTED"   # Dask's setting of its log level
ADDRESS_SETTING = "Dask's scheduler-address setting (DASK_SCHEDULER_ADDRESS)"


def _shared(data: Any) -> Any:
    """The task whose result is the data every task of a run shares."""
    return data


class ClusterError(Exception):
    """The cluster cannot be used: the extra is missing, the address is
    wrong, or it cannot be reached."""


class ClusterLost(ClusterError):
    """The cluster went away during a run: its scheduler, or all its workers."""


@dataclass(frozen=True)
class Lost:
    """A task that did not return a result, and why."""

    reason: str


def dask_missing(what: str) -> ClusterError:
    return ClusterError(f"{what} needs the optional extra for clusters and reports: "
                        f"{INSTALL_HINT}")


def connect_timeout() -> float:
    """Dask's `distributed.comm.timeouts.connect`, in seconds."""
    import dask
    from dask.utils import parse_timedelta

    value = dask.config.get("distributed.comm.timeouts.connect")
    try:
        seconds = parse_timedelta(value)
    except (TypeError, ValueError, KeyError):
        seconds = None
    if not (isinstance(seconds, (int, float)) and 0 < seconds < float("inf")):
        raise ClusterError(f"Dask's distributed.comm.timeouts.connect setting "
                           f"{quote(str(value))} is not a positive duration (such as 5s)")
    return float(seconds)


class Cluster:
    """A connection to a Dask cluster, started on demand when no address is
    given; use it in a `with` block so that what was started is stopped.

    `address` is what the user gave (None: Dask's setting, else a local
    cluster); `workers` is how many to start (local) or wait for (running
    cluster), within `worker_wait` seconds."""

    def __init__(self, address: str | None = None, workers: int | None = None,
                 worker_wait: float = WAIT_FOR_WORKERS) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise dask_missing("running on several workers") from None
        _quiet_dask()
        given_as = "--cluster"
        if address is None:
            address = dask.config.get("scheduler-address", None)
            given_as = ADDRESS_SETTING
        self._local: Any = None
        # The processes this process had before it started a local cluster:
        # any other child is the cluster's, killed when a run ends abruptly.
        self._children_before: set[multiprocessing.process.BaseProcess] | None = None
        self.client: Any = None
        self.worker_wait = worker_wait
        cores = os.cpu_count() or 1
        if address is None:
            if workers and workers > LOCAL_PER_CORE * cores:
                raise ClusterError(f"a local cluster has at most {LOCAL_PER_CORE * cores} "
                                   f"workers ({LOCAL_PER_CORE} a core); give --cluster "
                                   f"ADDRESS for more")
            self.where = "the local cluster"
            self._children_before = set(multiprocessing.active_children())
            problem: Exception | None = None
            with _quiet_workers():
                try:
                    # The scheduler and the connection first, with no
                    # worker: a Ctrl-C is held until they stand, so that
                    # there is something whole to stop (a cluster or client
                    # cut short half-built would be nobody's to close, and
                    # Dask would hang or fail on them at exit).
                    with interrupts_held() as held:
                        self._local = LocalCluster(
                            n_workers=0, threads_per_worker=1, processes=True,
                            dashboard_address="127.0.0.1:0")
                        # Stopped here; Dask's own stop at exit would only
                        # fail again, loudly, on workers killed half-started.
                        self._local.shutdown_on_close = False
                        self.client = Client(self._local, set_as_default=False)
                    if held:
                        raise KeyboardInterrupt
                    self._local.scale(workers or cores)
                    self._wait_for_workers(workers or cores)
                except Exception as exc:  # ports, processes, Dask's settings: any cause
                    problem = exc
                    self.close(abruptly=True)
                except BaseException:   # Ctrl-C while the workers start
                    self.close(abruptly=True)
                    raise
            if isinstance(problem, ClusterError):
                raise problem
            if problem is not None:
                raise ClusterError(f"cannot start a local cluster: {_words(problem)}")
            return
        try:
            scheduler = parse_address(str(address), given_as)
        except AddressError as exc:
            raise ClusterError(str(exc)) from None
        self.where = f"the cluster at {scheduler}"
        timeout = connect_timeout()
        _reach(scheduler, timeout)
        _handshake(scheduler, timeout)
        try:
            self.client = Client(scheduler.uri, timeout=timeout, set_as_default=False)
        except Exception as exc:  # whatever the far end sent; Dask's errors vary by version
            self.close()
            raise ClusterError(f"cannot connect to {self.where}: {_words(exc)}") from None
        self._wait_for_workers(workers or 1)

    def _wait_for_workers(self, wanted: int) -> None:
        """Wait until the cluster has `wanted` workers, within the worker
        wait; the scheduler's going away is noticed at once (Dask's own wait
        would retry its connection for the connect timeout first)."""
        deadline = time.monotonic() + self.worker_wait
        try:
            while (have := self.workers) < wanted:
                if time.monotonic() > deadline:
                    raise ClusterError(
                        f"{self.where} has {have} of the {wanted} worker(s) asked for after "
                        f"{self.worker_wait:g} s" if wanted > 1 or have else
                        f"{self.where} has no worker after {self.worker_wait:g} s")
                time.sleep(WORKER_POLL)
        except BaseException:
            self.close(abruptly=True)
            raise

    @property
    def workers(self) -> int:
        """How many workers the cluster has now."""
        if self.client.status != "running":
            raise self._lost()
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception as exc:  # the scheduler is gone
            raise self._lost(exc) from None

    def run(self, task: Callable[..., Any], shared: Any,
            arguments: Iterable[tuple[Any, ...]]) -> Iterator[tuple[int, Any]]:
        """Run `task(shared, *arguments[i])` for each i; yield `(i, result)`
        as each finishes, with a `Lost` result for a task that did not come
        back.  A few tasks a worker are sent at a time, more as each
        finishes; those not yet finished are cancelled when the caller
        stops.  Raises `ClusterLost` when the scheduler goes away, or when
        the cluster has had no worker for the worker wait."""
        waiting = enumerate(arguments)
        window = IN_FLIGHT_PER_WORKER * max(self.workers, 1)
        finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
        running: dict[Any, int] = {}
        try:
            sent = self.client.submit(_shared, shared, pure=False)
        except Exception as exc:  # the scheduler went away before the data left
            raise self._lost(exc) from None

        def send(count: int) -> None:
            try:
                for index, args in itertools.islice(waiting, count):
                    future = self.client.submit(task, sent, *args, pure=False)
                    running[future] = index
                    future.add_done_callback(finished.put)
            except Exception as exc:  # the scheduler went away
                raise self._lost(exc) from None

        idle_since: float | None = None
        try:
            send(window)
            while running:
                try:
                    future = finished.get(timeout=POLL)
                except queue.Empty:
                    idle_since = self._check_workers(idle_since)
                    continue
                idle_since = None
                index = running.pop(future)
                yield index, self._result(future, sent)
                future.release()
                send(1)
        finally:
            if running and self.client.status == "running":
                with contextlib.suppress(Exception):  # it may have gone meanwhile
                    self.client.cancel(list(running))

    def _lost(self, exc: BaseException | None = None) -> ClusterLost:
        """The error for a scheduler that went away, with how Dask noticed."""
        how = f": {_words(exc)}" if exc is not None else ""
        return ClusterLost(f"lost the connection to {self._scheduler()}{how}")

    def _result(self, future: Any, sent: Any) -> Any:
        """A finished task's result, or a `Lost` saying why there is none
        (`sent`: the shared data the task was given)."""
        if future.status == "finished":
            try:
                return future.result()
            except Exception as exc:  # the result was on a worker or scheduler now gone
                if self.client.status != "running":
                    raise self._lost() from None
                return Lost(f"its result could not be fetched: {_words(exc)}")
        if future.status == "cancelled":
            # Dask cancels every task when the client loses its scheduler.
            if self.client.status != "running":
                raise self._lost()
            return Lost("it was cancelled on the cluster")
        try:
            error = future.exception()
        except Exception:  # the error was on a scheduler now gone
            if self.client.status != "running":
                raise self._lost() from None
            error = None
        if sent.status == "error":  # every later task would fail the same way
            raise ClusterLost(f"the data every task needs could not be placed on "
                              f"{self.where}: {_why(error)}")
        return Lost(_why(error))

    def _check_workers(self, idle_since: float | None) -> float | None:
        """While no task finishes: fail when the scheduler is gone, or when the
        cluster has had no worker for the worker wait; return since when it
        has had none."""
        if self.workers:
            return None
        now = time.monotonic()
        if idle_since is not None and now - idle_since > self.worker_wait:
            raise ClusterLost(f"{self.where} has had no worker for "
                              f"{self.worker_wait:g} s")
        return now if idle_since is None else idle_since

    def _scheduler(self) -> str:
        return "the local cluster's scheduler" if self._local is not None \
            else f"the scheduler of {self.where}"

    def close(self, abruptly: bool = False) -> None:
        """Disconnect, and stop a local cluster; `abruptly` (Ctrl-C, an
        error) kills the local workers first rather than waiting for the
        tasks they are running."""
        if abruptly and self._children_before is not None:
            if self._local is not None:   # so that no worker is started again
                for nanny in list(self._local.workers.values()):
                    with contextlib.suppress(Exception):
                        nanny.close_gracefully()
            for process in set(multiprocessing.active_children()) - self._children_before:
                with contextlib.suppress(Exception):   # it may have ended already
                    process.kill()
        if self.client is not None:
            # It may be gone already (a worker or the scheduler died).
            with contextlib.suppress(Exception):
                self.client.close(timeout=CLOSE_WAIT)
        if self._local is not None:
            with contextlib.suppress(Exception):
                self._local.close(timeout=CLOSE_WAIT)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        self.close(abruptly=kind is not None)


def _in_thread(call: Callable[[], None], seconds: float) -> BaseException | None:
    """Run `call` in a thread of its own for at most `seconds`; return what
    it raised (a `TimeoutError` when it did not finish).  A daemon thread:
    a host lookup that never returns must not keep the program alive; and
    its own thread, so that it works whatever event loop the caller runs."""
    outcome: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()

    def attempt() -> None:
        try:
            call()
            outcome.put(None)
        except BaseException as exc:  # handed to the caller's thread
            outcome.put(exc)
    threading.Thread(target=attempt, daemon=True).start()
    try:
        return outcome.get(timeout=seconds)
    except queue.Empty:
        return TimeoutError()


def _reach(scheduler: SchedulerAddress, timeout: float) -> None:
    """Look the host up and open a TCP connection to the port, within
    `timeout` seconds (the lookup too), or raise a `ClusterError` saying
    which of the two failed."""
    def connect() -> None:
        socket.create_connection((scheduler.host, scheduler.port), timeout).close()

    problem = _in_thread(connect, timeout + 1)
    where = f"the cluster at {scheduler}"
    if isinstance(problem, socket.gaierror):
        raise ClusterError(f"cannot reach {where}: the host name '{scheduler.host}' is not "
                           f"known ({problem.strerror})")
    if isinstance(problem, ConnectionRefusedError):
        raise ClusterError(f"cannot reach {where}: nothing listens on port {scheduler.port} "
                           f"(connection refused)")
    if isinstance(problem, TimeoutError):
        raise ClusterError(f"cannot reach {where}: no answer within {timeout:g} s "
                           f"(Dask's distributed.comm.timeouts.connect)")
    if isinstance(problem, OSError):
        raise ClusterError(f"cannot reach {where}: {problem.strerror or problem}")
    if problem is not None:
        raise problem


def _handshake(scheduler: SchedulerAddress, timeout: float) -> None:
    """Open a Dask connection and exchange Dask's handshake within
    `HANDSHAKE_WAIT` seconds (the port was just reached, so connecting
    again takes no time), or raise a `ClusterError`: a server that is
    not a Dask scheduler (a web server, a port that accepts and never
    answers) is found here, before the client waits on it unbounded."""
    from distributed.comm.core import connect

    async def greet() -> None:
        comm = await connect(scheduler.uri, timeout=timeout)
        await comm.close()

    problem = _in_thread(lambda: asyncio.run(asyncio.wait_for(greet(), HANDSHAKE_WAIT)),
                         HANDSHAKE_WAIT + 1)
    where = f"the server at {scheduler}"
    if isinstance(problem, TimeoutError):
        raise ClusterError(f"{where} accepted the connection but did not answer as a Dask "
                           f"scheduler within {HANDSHAKE_WAIT:g} s: is it one?")
    if isinstance(problem, Exception):  # garbage from another kind of server: any error
        raise ClusterError(f"{where} does not answer as a Dask scheduler does (is it another "
                           f"kind of server?): {_words(problem)}")
    if problem is not None:
        raise problem


@contextlib.contextmanager
def interrupts_held() -> Iterator[list[int]]:
    """Ctrl-C is held, not acted on, for a moment (while something that
    must not be cut half-way is done); the list tells whether it came.
    Only the main thread receives signals: elsewhere nothing is held."""
    held: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    previous = signal.signal(signal.SIGINT, lambda number, frame: held.append(number))
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _quiet_workers() -> Iterator[None]:
    """What the local workers inherit while they start: logging of only what
    is critical, since the run reports lost work itself, and a standard
    error that goes nowhere.

    A terminal sends Ctrl-C to every process of the foreground group, the
    workers too.  They cannot be made to ignore it (a process inherits an
    ignored Ctrl-C, but then this one, which must stop the run, would miss
    one pressed while they start: the threads Dask starts meanwhile would
    receive and drop it), so a worker just ends, silently, and this process
    stops the run and kills the others."""
    saved = os.environ.get(WORKER_LOGGING)
    os.environ[WORKER_LOGGING] = "critical"
    stderr = os.dup(2)
    try:
        with open(os.devnull, "wb") as nowhere:
            os.dup2(nowhere.fileno(), 2)
        yield
    finally:
        os.dup2(stderr, 2)
        os.close(stderr)
        if saved is None:
            del os.environ[WORKER_LOGGING]
        else:
            os.environ[WORKER_LOGGING] = saved


def _quiet_dask() -> None:
    """The run reports lost workers and schedulers itself; Dask's own log
    lines would only repeat them, with tracebacks.  Dask's logging setting
    gives some of its loggers their own level, so each is set."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.startswith("distributed"):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def _words(exc: BaseException) -> str:
    """An exception from Dask or the network as a short phrase: its message,
    or its kind when it has none."""
    known = {"MemoryError": "it sent a message too large to be one of Dask's",
             "CommClosedError": "the connection was closed",
             "StreamClosedError": "the connection was closed"}
    text = str(exc).strip()
    if type(exc).__name__ in known:  # their messages show Dask's internals
        return known[type(exc).__name__]
    return shorten(text, WORDS) if text else f"{type(exc).__name__} with no message"


def _why(exc: BaseException | None) -> str:
    """Why a task came back without a result, in words."""
    from distributed import KilledWorker

    if isinstance(exc, KilledWorker):
        return "its worker died"
    if exc is None:
        return "the cluster gave no reason"
    return f"{type(exc).__name__}: {_words(exc)}"
