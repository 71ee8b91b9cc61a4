"""The playground server's child processes, counted from outside.

`variantkit serve` runs as in `test_web_hostile` (a real server on
127.0.0.1); its children are read from /proc (every process whose parent is
the server, whichever of its threads started it).  However many searches
are started and stopped or left to end, they stay within
`workers.MAX_CHILDREN`, none is left a zombie, a stopped search's process is
gone when the stop is answered, and none outlives the server.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_hostile import Server

from variantkit.web import workers

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="children are counted from /proc")

CHESS = {"bundled": "chess"}
SETTLE_SECONDS = 10.0  # a bound for the reaper (once a second) to catch up, not a measure


def children(pid: int) -> dict[int, str]:
    """The child processes of `pid`, each with its state letter (`Z`: a zombie)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it ended while the folder was read
            continue
        state, parent = stat.rpartition(")")[2].split()[:2]
        if int(parent) == pid:
            found[int(entry.name)] = state
    return found


def settled(server: Server, expected: set[int]) -> dict[int, str]:
    """The server's children once they are `expected` (or the deadline passes)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while (now := children(server.process.pid)).keys() != expected \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    return now


@pytest.fixture()
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.stop()
    assert "Traceback" not in running.log(), running.log()[-3000:]


def test_stopped_searches_leave_no_process(server: Server) -> None:
    base = children(server.process.pid)
    # The workers and the resource tracker (the first page warms the workers).
    assert len(base) == workers.WORKERS + 1, base
    for round_ in range(24):
        started = server.ask("POST", "/api/search", {"source": CHESS, "seconds": 10})
        assert started.status == 200, started.text
        key = started.json["id"]
        if round_ % 3 == 0:  # some are stopped at once, others once they have begun
            time.sleep(0.3)
        during = children(server.process.pid)
        assert len(during) <= workers.MAX_CHILDREN and "Z" not in during.values(), during
        assert server.ask("DELETE", f"/api/search/{key}").json["ok"]
        # Killed and reaped before the stop is answered.
        after = children(server.process.pid)
        assert after.keys() == base.keys() and "Z" not in after.values(), after
    assert server.ask("POST", "/api/position", {"source": CHESS}).json["ok"]


def test_searches_nobody_stops_are_reaped_unasked(server: Server) -> None:
    base = children(server.process.pid)
    for _ in range(3):
        keys = []
        for _ in range(workers.MAX_SEARCHES):
            started = server.ask("POST", "/api/search", {"source": CHESS, "depth": 1})
            assert started.status == 200, started.text
            keys.append(started.json["id"])
        assert server.ask("POST", "/api/search", {"source": CHESS}).rules == ["busy"]
        assert len(children(server.process.pid)) <= workers.MAX_CHILDREN
        # Nobody asks again: the searches end by themselves and their
        # processes are reaped all the same, none left a zombie.
        now = settled(server, set(base))
        assert now.keys() == base.keys() and "Z" not in now.values(), now
    answer = server.ask("GET", f"/api/search/{keys[0]}").json
    assert answer["state"] == "done" and answer["answer"]["ok"]


def test_a_worker_killed_while_idle_is_reaped_and_replaced(server: Server) -> None:
    base = children(server.process.pid)
    worker = next(pid for pid in base if b"spawn_main" in Path(f"/proc/{pid}/cmdline")
                  .read_bytes())
    os.kill(worker, signal.SIGKILL)
    deadline = time.monotonic() + SETTLE_SECONDS
    while ((now := children(server.process.pid)).keys() == base.keys() or len(now) != len(base)
           or "Z" in now.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert worker not in now and len(now) == len(base) and "Z" not in now.values(), now
    assert server.ask("POST", "/api/position", {"source": CHESS}).json["ok"]


def test_no_child_outlives_the_server() -> None:
    server = Server()
    started = server.ask("POST", "/api/search", {"source": CHESS, "seconds": 10})
    assert started.status == 200
    running = children(server.process.pid)
    assert len(running) == workers.WORKERS + 2, running  # a search among them
    server.stop()
    assert server.process.returncode == 0, server.log()
    deadline = time.monotonic() + SETTLE_SECONDS
    while (left := [pid for pid in running if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, left


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie whose parent has gone is
    not: reaping it is the business of whatever adopted it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_the_bound_on_children_is_documented() -> None:
    text = (Path(__file__).resolve().parent.parent.parent / "docs" / "limits.md").read_text("utf-8")
    section = text.split("## The playground server", 1)[1].split("\n## ", 1)[0]
    assert f"| {workers.MAX_CHILDREN}: " in section
    assert f"within {workers.REAP_SECONDS:g} s" in section
