"""Where tasks run: a Dask.distributed cluster.

With an address (`--cluster tcp://host:8786`, or Dask's own
`DASK_SCHEDULER_ADDRESS` / `scheduler-address` setting) the tasks go to a
running cluster; without one a local cluster of this machine's cores is
started for the run and stopped after it.  Each task is one function call on
a worker; the data every task shares (the variant's text) is sent to each
worker once.

A task whose worker dies is run again elsewhere by Dask (up to its
`distributed.scheduler.allowed-failures` setting); a task that still does
not come back is reported as a `Lost` result, and the other tasks go on.

Dask is imported only here and only when a cluster is asked for, so the
rest of variantkit works without the optional extra.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

INSTALL_HINT = "pip install 'variantkit[cluster]'"
WAIT_FOR_WORKERS = 60.0   # seconds to wait for the workers asked for on a running cluster
LOCAL_PER_CORE = 2        # more local worker processes than this only share the cores
WORKER_LOGGING = "DASK_LOGGING__DISTRIBUTED"   # Dask's setting of its log level


class ClusterError(Exception):
    """The cluster cannot be used: the extra is missing, or it is unreachable."""


@dataclass(frozen=True)
class Lost:
    """A task that did not return a result, and why."""

    reason: str


def dask_missing(what: str) -> ClusterError:
    return ClusterError(f"{what} needs the optional extra for clusters and reports: "
                        f"{INSTALL_HINT}")


class Cluster:
    """A connection to a Dask cluster, started on demand when no address is
    given; use it in a `with` block so that what was started is stopped."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise dask_missing("running on several workers") from None
        # The run reports lost workers itself; Dask's own log lines would
        # only repeat them, with tracebacks.
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        address = address or dask.config.get("scheduler-address", None)
        self.address = address
        self._local: Any = None
        cores = os.cpu_count() or 1
        if address is None and workers and workers > LOCAL_PER_CORE * cores:
            raise ClusterError(f"a local cluster has at most {LOCAL_PER_CORE * cores} workers "
                               f"({LOCAL_PER_CORE} a core); give --cluster ADDRESS for more")
        try:
            if address is None:
                with _quiet_workers():
                    self._local = LocalCluster(
                        n_workers=workers or cores, threads_per_worker=1,
                        processes=True, dashboard_address="127.0.0.1:0")
                self.client: Any = Client(self._local)
            else:
                self.client = Client(address)
                if workers:
                    self.client.wait_for_workers(workers, timeout=WAIT_FOR_WORKERS)
        except (OSError, ValueError, TimeoutError) as exc:
            self.close()
            where = f"the cluster at {address}" if address else "a local cluster"
            raise ClusterError(f"cannot reach {where}: {exc}") from None

    @property
    def workers(self) -> int:
        """How many workers the cluster has now."""
        return len(self.client.scheduler_info().get("workers", {}))

    def run(self, task: Callable[..., Any], shared: Any,
            arguments: Sequence[tuple[Any, ...]]) -> Iterator[tuple[int, Any]]:
        """Run `task(shared, *arguments[i])` for each i; yield `(i, result)`
        as each finishes, with a `Lost` result for a task that did not come
        back.  Tasks not yet finished are cancelled when the caller stops."""
        from distributed import as_completed

        sent = self.client.scatter(shared, broadcast=True, hash=False)
        futures = {self.client.submit(task, sent, *args, pure=False): index
                   for index, args in enumerate(arguments)}
        try:
            for future in as_completed(futures):
                index = futures.pop(future)
                if future.status == "finished":
                    yield index, future.result()
                else:
                    yield index, Lost(_why(future.exception()))
                future.release()
        finally:
            if futures:
                self.client.cancel(list(futures))

    def close(self) -> None:
        for part in (getattr(self, "client", None), self._local):
            if part is not None:
                # It may be gone already (a worker or the scheduler died).
                with contextlib.suppress(Exception):
                    part.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def _quiet_workers() -> Iterator[None]:
    """What the local workers inherit while they start: they ignore Ctrl-C
    (a terminal sends it to every process of the foreground group) and leave
    it to this process to stop the run, and them, cleanly; and they log only
    what is critical, since the run reports lost work itself."""
    saved = os.environ.get(WORKER_LOGGING)
    os.environ[WORKER_LOGGING] = "critical"
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
        if saved is None:
            del os.environ[WORKER_LOGGING]
        else:
            os.environ[WORKER_LOGGING] = saved


def _why(exc: BaseException | None) -> str:
    from distributed import KilledWorker

    if isinstance(exc, KilledWorker):
        return "its worker died"
    return f"{type(exc).__name__}: {exc}"
