"""perft and analyze against clusters that fail: a scheduler killed mid-run,
workers that never arrive, Ctrl-C (addresses and servers that are not
schedulers: tests/analysis/test_cluster_addresses.py).

Every process is real (Dask's own `dask scheduler` / `dask worker` and the
`variantkit` command, as subprocesses on 127.0.0.1), so signals and exit
statuses are the ones users see; every wait is bounded."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from pathlib import Path

import psutil
import pytest
from distributed import Client
from test_cluster import (
    BIN,
    CLI_ENV,
    RUN_LIMIT,
    STARTUP,
    LiveCluster,
    _stop,
    _wait_until,
    live_cluster,
    variantkit_cli,
)
from test_cluster_addresses import clean, fake_server, one_error_line

EXIT_INTERRUPTED = 130
STOPPED = "Stopped: the report covers the games played so far."
STOP_LIMIT = 30.0    # seconds a command may take to stop after Ctrl-C on a loaded machine


# --- workers that do not come ------------------------------------------------------------


def test_too_few_workers_is_said_as_such() -> None:
    with live_cluster(2) as live:
        done = variantkit_cli("perft", "chess", "3", "--workers", "5", "--worker-wait", "2",
                              "--cluster", live.address)
    assert one_error_line(done) == (f"error: the cluster at {live.address} has 2 of the 5 "
                                    "worker(s) asked for after 2 s")


def test_a_cluster_without_workers_is_not_waited_on_forever() -> None:
    with live_cluster(0) as live:
        done = variantkit_cli("analyze", "chess", "--games", "1", "--worker-wait", "1",
                              "--cluster", live.address)
    assert one_error_line(done) == f"error: the cluster at {live.address} has no worker after 1 s"


# --- a scheduler killed mid-run ---------------------------------------------------------


def _long_perft(live: LiveCluster) -> subprocess.Popen[str]:
    """`variantkit perft` on the cluster, deep enough to be stopped midway."""
    return subprocess.Popen([str(BIN / "variantkit"), "perft", "chess", "6", "--cluster",
                             live.address], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=CLI_ENV)


def _busy(live: LiveCluster) -> None:
    """Wait until the cluster's workers run tasks; the test's own client is
    closed before anything is killed."""
    with Client(live.address, timeout=STARTUP) as client:
        _wait_until(lambda: any(client.processing().values()))


def _kill_scheduler(live: LiveCluster) -> None:
    live.scheduler.kill()
    live.scheduler.wait(10)


def test_perft_without_its_scheduler_says_so_and_gives_no_total() -> None:
    with live_cluster(2) as live:
        run = _long_perft(live)
        try:
            _busy(live)
            _kill_scheduler(live)
            out, err = run.communicate(timeout=RUN_LIMIT)
        finally:
            _stop(run)
    clean((out, err))
    assert run.returncode == 1 and out == ""
    assert err == (f"error: lost the connection to the scheduler of the cluster at "
                   f"{live.address}; no exact total\n")


def test_analyze_without_its_scheduler_writes_what_it_has_and_fails(tmp_path: Path) -> None:
    figures = tmp_path / "r.json"
    with live_cluster(2) as live:
        run = subprocess.Popen(
            [str(BIN / "variantkit"), "analyze", "losalamos", "--games", "50", "--depth", "1",
             "--cluster", live.address, "--json", str(figures)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLI_ENV)
        try:
            _busy(live)
            _kill_scheduler(live)
            out, err = run.communicate(timeout=RUN_LIMIT)
        finally:
            _stop(run)
    clean((out, err))
    assert run.returncode == 1
    (summary,) = json.loads(figures.read_text())
    reason = f"lost the connection to the scheduler of the cluster at {live.address}"
    assert summary["interrupted"] and summary["stopped_by"] == reason
    assert summary["played"] + summary["not_played"] == 50 and summary["not_played"] > 0
    assert err == (f"error: {reason}: the report covers the {summary['played']} of 50 "
                   "games asked for\n")
    assert out.startswith(f"losalamos: {summary['played']} games")


def test_a_scheduler_lost_while_waiting_for_workers_is_said_at_once() -> None:
    with live_cluster(1) as live:
        run = subprocess.Popen([str(BIN / "variantkit"), "perft", "chess", "3", "--workers", "3",
                                "--cluster", live.address], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=CLI_ENV)
        try:
            with Client(live.address, timeout=STARTUP) as client:
                # The command's client has joined ours and Dask's own.
                _wait_until(lambda: len(client.run_on_scheduler(
                    lambda dask_scheduler: list(dask_scheduler.clients))) >= 3)
            _kill_scheduler(live)
            # Far less than the 60 s worker wait, and than Dask's 30 s of
            # connection retries.
            out, err = run.communicate(timeout=25)
        finally:
            _stop(run)
    clean((out, err))
    assert run.returncode == 1
    assert err == f"error: lost the connection to the scheduler of the cluster at {live.address}\n"


def test_analyze_whose_workers_all_die_writes_what_it_has_and_fails(tmp_path: Path) -> None:
    figures = tmp_path / "r.json"
    with live_cluster(2) as live:
        run = subprocess.Popen(
            [str(BIN / "variantkit"), "analyze", "losalamos", "--games", "20", "--depth", "1",
             "--worker-wait", "5", "--cluster", live.address, "--json", str(figures)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLI_ENV)
        try:
            _busy(live)
            for worker in live.workers:
                worker.kill()
            out, err = run.communicate(timeout=RUN_LIMIT)
        finally:
            _stop(run)
    clean((out, err))
    assert run.returncode == 1
    (summary,) = json.loads(figures.read_text())
    # The games wait for a worker, and none comes within the worker wait.
    assert summary["stopped_by"] == f"the cluster at {live.address} has had no worker for 5 s"
    assert err == (f"error: {summary['stopped_by']}: the report covers the "
                   f"{summary['played']} of 20 games asked for\n")


# --- Ctrl-C -----------------------------------------------------------------------------


def _connected_to(run: subprocess.Popen[str], port: int) -> bool:
    try:
        return any(c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
                   for c in psutil.Process(run.pid).net_connections("tcp"))
    except psutil.Error:
        return False


def _interrupt(run: subprocess.Popen[str]) -> tuple[str, str]:
    run.send_signal(signal.SIGINT)
    return run.communicate(timeout=STOP_LIMIT)


def test_ctrl_c_while_connecting_writes_the_empty_report(tmp_path: Path) -> None:
    """Ctrl-C in the first seconds (here: while a port that never answers is
    being waited on) ends the run as Ctrl-C later does."""
    figures = tmp_path / "r.json"
    with fake_server(None) as port:
        run = subprocess.Popen(
            [str(BIN / "variantkit"), "analyze", "chess", "--games", "10", "--cluster",
             f"127.0.0.1:{port}", "--json", str(figures)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLI_ENV)
        try:
            _wait_until(lambda: _connected_to(run, port))
            out, err = _interrupt(run)
        finally:
            _stop(run)
    assert run.returncode == EXIT_INTERRUPTED, err
    assert clean((out, err)).splitlines() == [STOPPED]
    (summary,) = json.loads(figures.read_text())
    assert summary["played"] == 0 and summary["not_played"] == 10
    assert summary["stopped_by"] == "Ctrl-C"


def test_ctrl_c_in_a_huge_run_stops_it_at_once(tmp_path: Path) -> None:
    """A million games are not all sent to the scheduler first: Ctrl-C stops
    the run promptly, with the report of what was played."""
    figures = tmp_path / "r.json"
    with live_cluster(1) as live:
        run = subprocess.Popen(
            [str(BIN / "variantkit"), "analyze", "losalamos", "--games", "1000000",
             "--depth", "1", "--cluster", live.address, "--json", str(figures)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLI_ENV)
        try:
            _busy(live)
            with Client(live.address, timeout=STARTUP) as client:
                known = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
            out, err = _interrupt(run)
        finally:
            _stop(run)
    assert run.returncode == EXIT_INTERRUPTED, err
    assert clean((out, err)).splitlines() == [STOPPED]
    # Only a window of games was on the cluster (a few a worker, and the
    # variant's text), not a million.
    assert known <= 10
    (summary,) = json.loads(figures.read_text())
    assert summary["interrupted"] and summary["played"] + summary["not_played"] == 1_000_000


def test_perft_stopped_by_ctrl_c_gives_no_total() -> None:
    with live_cluster(1) as live:
        run = _long_perft(live)
        try:
            _busy(live)
            out, err = _interrupt(run)
        finally:
            _stop(run)
    assert run.returncode == EXIT_INTERRUPTED
    assert clean((out, err)) == "error: stopped: no total\n" and out == ""



def _worker_processes(run: subprocess.Popen[str]) -> list[psutil.Process]:
    """The processes a local cluster started (multiprocessing's, not its
    resource tracker)."""
    found = []
    try:
        for child in psutil.Process(run.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if any("spawn_main" in part for part in child.cmdline()):
                    found.append(child)
    except psutil.Error:
        pass
    return found


@pytest.mark.parametrize("workers_seen", [1, 2])
def test_ctrl_c_while_a_local_cluster_starts_stops_the_run(workers_seen: int) -> None:
    """Ctrl-C pressed as a terminal sends it (to the whole process group)
    while a local cluster's workers are starting (one, or both, of their
    processes exist but the cluster is not ready): the run stops, as later,
    with every worker process gone.  It used to be ignored, and the count
    went on to its end."""
    run = subprocess.Popen(
        [str(BIN / "variantkit"), "perft", "chess", "7", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLI_ENV,
        start_new_session=True)
    try:
        _wait_until(lambda: len(_worker_processes(run)) >= workers_seen)
        workers = _worker_processes(run)
        os.killpg(run.pid, signal.SIGINT)
        out, err = run.communicate(timeout=STOP_LIMIT)
    finally:
        _stop(run)
    assert run.returncode == EXIT_INTERRUPTED, err
    assert clean((out, err)).splitlines()[-1] in ("error: stopped: no total",
                                                  "error: stopped (Ctrl-C)")
    _, alive = psutil.wait_procs(workers, timeout=STOP_LIMIT)
    assert alive == []
