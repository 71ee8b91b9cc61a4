"""perft and analyze on a real Dask cluster: a scheduler and workers started
as separate processes with Dask's own command-line tools on 127.0.0.1,
free ports, bounded waits, always torn down."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from catalogue import one_per_rule
from distributed import Client

import variantkit
from variantkit.analysis.cluster import Cluster
from variantkit.analysis.payload import variant_text
from variantkit.analysis.perft import distributed_perft
from variantkit.analysis.stats import summarize
from variantkit.analysis.tournament import Settings, play_game

BIN = Path(sys.executable).parent
STARTUP = 60.0       # seconds a cluster may take to come up on a loaded machine
RUN_LIMIT = 240.0    # seconds any command here may take
# The commands' stderr is read line by line: a warning that an installed
# compiled build is older than the sources being edited is not theirs.
CLI_ENV = {**os.environ, "PYTHONWARNINGS": "ignore::RuntimeWarning"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class LiveCluster:
    address: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]]


def _stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextmanager
def live_cluster(workers: int, scheduler_env: dict[str, str] | None = None,
                 ) -> Iterator[LiveCluster]:
    """`dask scheduler` and `dask worker` processes (one single-threaded
    worker each, no nanny, so that killing one really loses it)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    processes = [subprocess.Popen(
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
         "--no-dashboard"], env={**os.environ, **(scheduler_env or {})}, **quiet)]
    try:
        for i in range(workers):
            processes.append(subprocess.Popen(
                [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-nanny",
                 "--no-dashboard", "--host", "127.0.0.1", "--name", f"w{i}",
                 "--death-timeout", "60"], **quiet))
        with Client(address, timeout=STARTUP) as client:
            if workers:
                client.wait_for_workers(workers, timeout=STARTUP)
        yield LiveCluster(address, processes[0], processes[1:])
    finally:
        for process in reversed(processes):
            _stop(process)


@pytest.fixture(scope="module")
def cluster() -> Iterator[LiveCluster]:
    with live_cluster(2) as live:
        yield live


def variantkit_cli(*args: str, env: dict[str, str] | None = None,
                   ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "variantkit"), *args], capture_output=True, text=True,
                          timeout=RUN_LIMIT, env={**CLI_ENV, **(env or {})})


# --- perft --------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "depth", "nodes"),
                         [("strato", "3", 236_125), ("diplomat", "4", 24_748)])
def test_distributed_perft_prints_the_single_process_count(
        cluster: LiveCluster, variant: str, depth: str, nodes: int) -> None:
    done = variantkit_cli("perft", variant, depth, "--cluster", cluster.address)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"Nodes searched: {nodes}"


def test_divide_on_the_cluster_matches_the_single_process_divide(cluster: LiveCluster) -> None:
    args = ("perft", "chess", "3", "--divide", "--moves", "e2e4 e7e5")
    alone = variantkit_cli(*args)
    spread = variantkit_cli(*args, "--workers", "2", "--cluster", cluster.address)
    assert spread.returncode == 0, spread.stderr
    assert spread.stdout == alone.stdout
    assert len(alone.stdout.splitlines()) > 20


@pytest.fixture(scope="module")
def remote(cluster: LiveCluster) -> Iterator[Cluster]:
    with Cluster(cluster.address) as connection:
        yield connection


def in_make_test(name: str) -> bool:
    """A variant for each rule and board (the work is split the same way
    whatever the rules), unless its first move has over 300 choices
    (amazons: 2,176, so perft 2 is millions of leaves); the rest run in
    make oracle."""
    return name in one_per_rule() and len(variantkit.load(name).new_game().legal_moves()) <= 300


@pytest.mark.parametrize("name", [
    *(name if in_make_test(name) else pytest.param(name, marks=pytest.mark.oracle)
      for name in variantkit.variants()),
    "examples/glinski.yaml", "examples/raumschach.yaml"])
def test_distributed_perft_equals_perft_on_every_variant(remote: Cluster, name: str) -> None:
    game = variantkit.load(name).new_game()
    counts = distributed_perft(game, 2, remote)
    assert sum(counts.values()) == variantkit.perft(game, 2)
    assert list(counts) == sorted(str(m) for m in game.legal_moves())


def test_one_ply_lists_the_moves_in_order_as_deeper_counts_do(remote: Cluster) -> None:
    game = variantkit.load("chess").new_game()
    assert list(distributed_perft(game, 1, remote)) == sorted(str(m) for m in game.legal_moves())


def test_few_root_moves_are_split_deeper(remote: Cluster) -> None:
    game = variantkit.load("chess").new_game()
    for move in ("e2e4", "f7f6", "d1h5"):   # Black's only move is g7g6
        game.push(move)
    counts = distributed_perft(game, 4, remote)
    assert counts == {"g7g6": variantkit.perft(game, 4)}


def test_an_unreachable_cluster_is_a_clear_error() -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    done = variantkit_cli("perft", "chess", "2", "--cluster", address,
                          env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"})
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: cannot reach the cluster at {address}")
    assert "Traceback" not in done.stderr


def test_a_local_cluster_is_bounded_by_the_cores() -> None:
    done = variantkit_cli("perft", "chess", "2", "--workers", "1000")
    assert done.returncode == 1
    assert done.stderr.startswith("error: a local cluster has at most ")
    assert "give --cluster ADDRESS for more" in done.stderr


def test_without_the_extra_the_commands_say_how_to_install_it() -> None:
    for args in (["perft", "chess", "2", "--workers", "2"], ["analyze", "chess"]):
        done = subprocess.run(
            [sys.executable, "-c", "import sys; sys.modules['distributed'] = None; "
             "from variantkit.cli import main; main()", *args],
            capture_output=True, text=True, timeout=RUN_LIMIT)
        assert done.returncode == 1
        assert "pip install 'variantkit[cluster]'" in done.stderr
        assert "Traceback" not in done.stderr


# --- analyze ------------------------------------------------------------------------------

SMALL_RUN = ("--games", "6", "--depth", "1", "--seed", "3", "--max-plies", "120")


def test_report_figures_match_a_direct_count(cluster: LiveCluster, tmp_path: Path) -> None:
    out, figures, pgn = tmp_path / "r.html", tmp_path / "r.json", tmp_path / "r.pgn"
    done = variantkit_cli("analyze", "losalamos", *SMALL_RUN, "--cluster",
                          cluster.address, "--out", str(out), "--json", str(figures),
                          "--pgn", str(pgn))
    assert done.returncode == 0, done.stderr
    (summary,) = json.loads(figures.read_text())
    games = variantkit.read_games(pgn.read_text(), variantkit.load("losalamos"))
    assert summary["played"] == len(games) == 6 and summary["lost"] == []

    # Results and terminations, from the replayed games.
    outcomes = [g.outcome() for g in games]
    winners = Counter(o.winner if o else None for o in outcomes)
    for side, key in (("white", "white"), ("black", "black"), (None, "draw")):
        assert summary["results"][key]["count"] == winners[side]
    reasons = Counter(o.reason if o else "move-limit" for o in outcomes)
    assert summary["terminations"] == dict(reasons)
    assert summary["length"]["plies"] == sorted(g.plies for g in games)

    # Branching and piece moves, by stepping through every game again.
    branching: dict[int, list[int]] = {}
    moved: Counter[str] = Counter()
    variant = games[0].variant
    names = {t.letter: t.name for t in variant.pieces.types}
    for game in games:
        replay = variant.new_game()
        for ply, move in enumerate(game.move_stack):
            branching.setdefault(ply, []).append(len(replay.legal_moves()))
            moved[names[(replay.piece_at(move.from_cell) or "").upper()]] += 1
            replay.push(move)
    assert [p["mean"] for p in summary["branching"]["by_ply"]] == \
        [sum(v) / len(v) for _, v in sorted(branching.items())]
    assert {n: sum(row["moves"]) for n, row in summary["pieces"].items()} == \
        {t.name: moved[t.name] for t in variant.pieces.types}

    # The same figures from the games played one by one in this process:
    # the number of workers does not change them.
    settings = Settings(games=6, depth=1, random_plies=4, max_plies=120, seed=3)
    text = variant_text(variant)
    alone = summarize(variant, settings, [play_game(text, i, settings) for i in range(6)])
    assert json.loads(json.dumps(alone)) == summary

    page = out.read_text()
    # Plots of results, ends, lengths, branching and pieces.
    assert page.count("<svg") == 5 and "losalamos" in page
    assert "src=" not in page and 'href="http' not in page and "<script" not in page


def test_variants_side_by_side(cluster: LiveCluster) -> None:
    done = variantkit_cli("analyze", "losalamos", "diplomat", "--games", "2",
                          "--depth", "1", "--max-plies", "30", "--cluster", cluster.address,
                          "--json", "-")
    assert done.returncode == 0, done.stderr
    assert [s["variant"] for s in json.loads(done.stdout)] == ["losalamos", "diplomat"]
    assert "losalamos: 2 games" in done.stderr


def _wait_until(condition: object, limit: float = STARTUP) -> None:
    deadline = time.monotonic() + limit
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_killed_worker_loses_its_game_and_the_run_goes_on(tmp_path: Path) -> None:
    # No retries on the scheduler: the game on the killed worker is lost.
    games = 8
    retries = {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
    figures = tmp_path / "r.json"
    with live_cluster(2, retries) as live, Client(live.address, timeout=STARTUP) as client:
        # Games long and many enough that w0 is surely seen playing one
        # before they are all done (short ones could finish unseen).
        run = subprocess.Popen(
            [str(BIN / "variantkit"), "analyze", "losalamos", "--games", str(games),
             "--depth", "3", "--max-plies", "60", "--cluster", live.address,
             "--json", str(figures)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=CLI_ENV)
        try:
            def victim_busy() -> bool:
                # With a game: the task that gives every game the variant's
                # text comes first, and its loss would lose them all.
                # (The client's list of workers may lag the scheduler's.)
                names = client.scheduler_info()["workers"]
                return any(str(key).startswith("play_game")
                           for worker, keys in client.processing().items()
                           if names.get(worker, {}).get("name") == "w0" for key in keys)
            _wait_until(victim_busy)
            live.workers[0].kill()
            out, err = run.communicate(timeout=RUN_LIMIT)
        finally:
            _stop(run)
    # The report is written, but it is not the one asked for: the status says so.
    assert run.returncode == 1, err
    (summary,) = json.loads(figures.read_text())
    assert summary["lost"], err
    assert summary["played"] + len(summary["lost"]) == games, err
    for lost in summary["lost"]:
        assert lost["seed"] == f"0/{lost['game']}" and lost["error"] == "its worker died"
        assert f"lost game {lost['game']} (seed 0/{lost['game']}): its worker died" in out
    assert f"{len(summary['lost'])} game(s) lost of {games}" in out
    assert err == (f"error: {len(summary['lost'])} of {games} games were lost (listed above): "
                   f"the report covers the other {summary['played']}\n")


def test_ctrl_c_writes_the_partial_report(tmp_path: Path) -> None:
    """Ctrl-C on a terminal interrupts the whole foreground process group:
    the command and the workers of its local cluster."""
    out, figures = tmp_path / "r.html", tmp_path / "r.json"
    run = subprocess.Popen(
        [str(BIN / "variantkit"), "analyze", "losalamos", "--games", "400",
         "--depth", "2", "--workers", "2", "--out", str(out), "--json", str(figures)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env=CLI_ENV)
    try:
        command = psutil.Process(run.pid)

        def playing(process: psutil.Process) -> bool:
            # A worker is a grandchild that has played a while (more CPU than
            # starting takes: Ctrl-C during the start would be ignored).
            try:
                return "spawn_main" in " ".join(process.cmdline()) \
                    and process.cpu_times().user > 1.5
            except psutil.Error:   # a short-lived helper process, gone or a zombie
                return False

        def workers_busy() -> bool:
            return sum(map(playing, command.children(recursive=True))) == 2
        _wait_until(workers_busy)
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=RUN_LIMIT)
        left = command.children(recursive=True) if command.is_running() else []
    finally:
        _stop(run)
    assert run.returncode == 130, err
    assert err.splitlines() == ["Stopped: the report covers the games played so far."]
    assert not left
    (summary,) = json.loads(figures.read_text())
    assert summary["interrupted"] and summary["played"] + summary["not_played"] == 400
    assert summary["not_played"] > 0 and summary["lost"] == []
    assert "The run was stopped" in out.read_text()
