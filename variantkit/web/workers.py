"""Child processes that do the playground's work, bounded in time and memory.

The server never compiles a variant or searches a position itself: typed
YAML is untrusted, and a 26x100 board or an alias bomb could take minutes
and gigabytes.  A `Pool` of `Worker` processes answers the quick tasks
(each with a time limit; a worker that overruns is ended and replaced), and
each engine search runs in a `Search` process of its own, which reports every
depth it completes and can be stopped at any time.  Every child caps its
own address space, so a runaway allocation fails inside the child only.

The children are bounded: WORKERS workers, at most MAX_SEARCHES searches and
multiprocessing's resource tracker (MAX_CHILDREN in all).  A stopped
search's process is killed and reaped before the stop is answered, and
`tidy_forever` reaps, without waiting for any client, the processes of
searches that ended (or ran past their time) and of workers that died idle,
so that no child is left running or a zombie.
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import resource
import secrets
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from starlette.concurrency import run_in_threadpool

from variantkit.errors import quote
from variantkit.web.sources import RequestError
from variantkit.web.tasks import Answer, failure, search_limits

MEMORY_LIMIT = 2 << 30  # bytes of address space for each child
TASK_SECONDS = {"position": 6.0, "source": 6.0, "explain": 6.0, "pgn": 6.0, "perft": 20.0}
# Tasks that may take their whole time: they hold at most all workers but one.
SLOW_TASKS = frozenset({"perft"})
MAX_WAITING = 8         # quick requests waiting for a worker; more are `busy`
MAX_SLOW_WAITING = 2    # slow ones waiting for their share of the workers
WAIT_SECONDS = 10.0     # a request waits no longer for a worker: then `busy`
# A task whose client has gone is given this long to end by itself before its
# worker is replaced: most end sooner, and a worker takes a second to start.
GRACE_SECONDS = 0.5
# A search ends by itself at tasks.MAX_ENGINE_SECONDS; this leaves room for
# starting the process and compiling the variant.
SEARCH_SECONDS = 20.0
MAX_SEARCHES = 2        # running at once
KEEP_FINISHED = 60.0    # seconds a finished search's answer stays readable
WORKERS = 2             # the pool's workers, unless the server is told otherwise
# Every child process at once: the workers, the searches and the resource
# tracker that multiprocessing's spawn start method runs beside them.
MAX_CHILDREN = WORKERS + MAX_SEARCHES + 1
# How often searches that ended with nobody asking are reaped, and workers
# that died idle replaced: a zombie lasts no longer than this.
REAP_SECONDS = 1.0

# A fresh interpreter for each child: forking a threaded server is unsafe.
_context = multiprocessing.get_context("spawn")


def _limit_memory(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn: Connection, limit: int) -> None:
    """A worker's life: answer (task, request) pairs until the pipe closes."""
    _limit_memory(limit)
    from variantkit.web.tasks import TASKS, run
    while True:
        try:
            name, request = conn.recv()
        except EOFError:
            return
        try:
            answer = run(TASKS[name], request)
        except Exception as exc:  # a fault of the playground: say so, keep serving
            answer = failure(f"the playground failed on this request ({type(exc).__name__})",
                             "internal-error")
        conn.send(answer)


def _search(conn: Connection, limit: int, request: Answer) -> None:
    """A search's life: ("info", ...) after each depth, then ("done", answer)."""
    _limit_memory(limit)
    from variantkit.web.tasks import run, search
    conn.send(("done", run(search, request, lambda info: conn.send(("info", info)))))


def _died(what: str) -> Answer:
    # Past its memory cap a child usually gets a MemoryError, answered as a
    # problem; one that dies instead was most likely killed for its memory.
    return failure(f"the {what} stopped: it needed more memory than the playground allows",
                   "memory-limit")


async def _readable(conn: Connection, seconds: float) -> None:
    """Wait until the child has answered (or died); TimeoutError after `seconds`."""
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()
    fd = conn.fileno()
    loop.add_reader(fd, ready.set)
    try:
        await asyncio.wait_for(ready.wait(), seconds)
    finally:
        loop.remove_reader(fd)


class Worker:
    """One child process answering tasks one at a time."""

    def __init__(self, memory: int = MEMORY_LIMIT) -> None:
        self.memory = memory
        self.closed = False
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    def start(self) -> Connection:
        if self._conn is None or not self.alive:
            self.stop()
            mine, theirs = _context.Pipe()
            self._process = _context.Process(target=_serve, args=(theirs, self.memory),
                                             daemon=True, name="variantkit-worker")
            self._process.start()
            theirs.close()
            self._conn = mine
        return self._conn

    @property
    def pid(self) -> int | None:
        """The process id of the running child, if any."""
        return self._process.pid if self._process is not None else None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    async def call(self, name: str, request: Any, seconds: float) -> Answer:
        """The task's answer, or a problem saying it took too long.  Cancelled
        (its client gone), the child is ended and a fresh one started."""
        try:
            conn = self.start()
            try:
                # In a thread: a long request fills the pipe until the child reads it.
                await run_in_threadpool(conn.send, (name, request))
            except OSError:  # the process died since the last task: start another
                self.stop()
                conn = self.start()
                await run_in_threadpool(conn.send, (name, request))
            await _readable(conn, seconds)
            answer: Answer = await run_in_threadpool(conn.recv)
        except TimeoutError:
            self.restart()
            return failure(f"this took longer than the playground allows ({seconds:g} s)",
                           "time-limit")
        except (EOFError, OSError):
            self.restart()
            return _died("worker")
        except BaseException:  # cancelled: nobody waits for this answer any more
            await self._settle()
            raise
        return answer

    async def _settle(self) -> None:
        """After a cancelled task: keep the child if it answers within
        GRACE_SECONDS (the answer is dropped), else end it and start another."""
        conn = self._conn
        try:
            if conn is None:
                raise EOFError
            await _readable(conn, GRACE_SECONDS)
            await run_in_threadpool(conn.recv)
        except BaseException:  # too slow, dead, or the server is stopping
            self.restart()

    def revive(self) -> None:
        """Reap a child that has died while idle (killed from outside) and
        start another; a live child, or none, is left as it is."""
        if self._process is not None and not self.alive:
            self.restart()

    def restart(self) -> None:
        """End the child, whatever it is doing, and start a fresh one, so that
        the next task does not wait for it to start (none once closed)."""
        self.stop()
        if not self.closed:
            self.start()

    def close(self) -> None:
        """Stop for good: a task cancelled as the server stops starts no child."""
        self.closed = True
        self.stop()

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None


class Pool:
    """A few workers shared by every request.  A request waits for a free
    one, but only so many wait (then the answer is `busy`); the slow tasks
    (perft) may hold only some of the workers at once, so that the board's own
    requests always find one soon."""

    def __init__(self, size: int = WORKERS, memory: int = MEMORY_LIMIT) -> None:
        self._workers = [Worker(memory) for _ in range(size)]
        self._idle = collections.deque(self._workers)  # the longest idle first: warm
        self._free = asyncio.Semaphore(size)
        self._slow = asyncio.Semaphore(max(1, size - 1))
        self._waiting = {False: 0, True: 0}  # requests waiting, by slowness

    def warm(self) -> None:
        """Start every worker now, so that the first page is quick."""
        for worker in self._workers:
            worker.start()

    async def call(self, name: str, request: Any) -> Answer:
        slow = name in SLOW_TASKS
        allowed = MAX_SLOW_WAITING if slow else MAX_WAITING
        if self._waiting[slow] >= allowed:
            return failure(f"the playground is busy ({allowed} requests like this one are "
                           "waiting): try again in a moment", "busy")
        self._waiting[slow] += 1
        try:
            async with asyncio.timeout(WAIT_SECONDS):
                await self._acquire(slow)
        except TimeoutError:
            return failure(f"the playground is busy (no worker was free for {WAIT_SECONDS:g} s):"
                           " try again in a moment", "busy")
        finally:
            self._waiting[slow] -= 1
        worker = self._idle.popleft()
        try:
            return await worker.call(name, request, TASK_SECONDS[name])
        finally:
            self._idle.append(worker)
            self._free.release()
            if slow:
                self._slow.release()

    async def _acquire(self, slow: bool) -> None:
        """Take a worker's place (and, for a slow task, a slow task's share)."""
        if slow:
            await self._slow.acquire()
        try:
            await self._free.acquire()
        except BaseException:
            if slow:
                self._slow.release()
            raise

    def reap(self) -> None:
        """Replace the idle workers whose process has died (a busy one is
        replaced by the task it was doing)."""
        for worker in self._idle:
            worker.revive()

    def close(self) -> None:
        for worker in self._workers:
            worker.close()


class Search:
    """One engine search in its own process."""

    def __init__(self, request: Answer, memory: int = MEMORY_LIMIT) -> None:
        mine, theirs = _context.Pipe(duplex=False)
        self._conn = mine
        self._process: BaseProcess | None = _context.Process(
            target=_search, args=(theirs, memory, request), daemon=True,
            name="variantkit-search")
        self._process.start()
        theirs.close()
        self.started = time.monotonic()
        self.finished: float | None = None
        self.info: Answer = {}
        self.answer: Answer | None = None

    def poll(self) -> Answer:
        """What the search has found so far, and its answer once done."""
        while self.answer is None:
            try:
                if not self._conn.poll():
                    break
                kind, value = self._conn.recv()
            except (EOFError, OSError):
                self._finish(_died("search"))
                break
            if kind == "info":
                self.info = value
            else:
                self._finish(value)
        if self.answer is None and time.monotonic() - self.started > SEARCH_SECONDS:
            # Past its time: the deepest move found stands, if any.
            self._finish({"ok": True, **self.info} if self.info else failure(
                f"the engine found no move in {SEARCH_SECONDS:g} s", "time-limit"))
        return {"state": "running" if self.answer is None else "done", "info": self.info,
                "answer": self.answer}

    def stop(self) -> None:
        if self.answer is None:
            self._finish(failure("the search was stopped", "stopped"))

    @property
    def running(self) -> bool:
        return self.answer is None

    def _finish(self, answer: Answer) -> None:
        self.answer = answer
        self.finished = time.monotonic()
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process = None
        self._conn.close()


class Searches:
    """The running and recently finished searches, by id."""

    def __init__(self, memory: int = MEMORY_LIMIT) -> None:
        self.memory = memory
        self._searches: dict[str, Search] = {}
        self._lock = threading.Lock()

    def start(self, request: Answer) -> Answer:
        try:
            search_limits(request)
        except RequestError as exc:
            return failure(str(exc), "bad-request")
        with self._lock:
            self._tidy()
            if sum(s.running for s in self._searches.values()) >= MAX_SEARCHES:
                return failure(f"the engine is busy ({MAX_SEARCHES} searches running): "
                               "stop one first", "busy")
            key = secrets.token_hex(8)
            self._searches[key] = Search(request, self.memory)
            return {"ok": True, "id": key}

    def poll(self, key: str) -> Answer:
        with self._lock:
            self._tidy()
            search = self._searches.get(key)
            if search is None:
                return failure(f"no search {quote(key)}", "bad-request")
            return {"ok": True, **search.poll()}

    def stop(self, key: str) -> Answer:
        with self._lock:
            search = self._searches.pop(key, None)
            if search is not None:
                search.stop()
            return {"ok": True}

    def close(self) -> None:
        with self._lock:
            for search in self._searches.values():
                search.stop()
            self._searches.clear()

    def tidy(self) -> None:
        """End the searches past their time and reap the processes of those
        that ended; forget old answers."""
        with self._lock:
            self._tidy()

    def _tidy(self) -> None:
        """`tidy`, the lock held: poll every search (a search that ended is
        reaped as its answer is read), and forget old answers."""
        now = time.monotonic()
        for key, search in list(self._searches.items()):
            search.poll()
            if search.finished is not None and now - search.finished > KEEP_FINISHED:
                del self._searches[key]


async def tidy_forever(pool: Pool, searches: Searches) -> None:
    """Every REAP_SECONDS, until cancelled: tidy the searches and replace
    the workers that died idle.  Without it a search that ended with nobody
    asking would stay a zombie (or, hung, run on) until the next request."""
    while True:
        await asyncio.sleep(REAP_SECONDS)
        await run_in_threadpool(searches.tidy)
        pool.reap()
