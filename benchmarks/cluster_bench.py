"""Cluster benchmark: what Dask.distributed costs and gives on this machine.

Run with `make bench-cluster` or `python benchmarks/cluster_bench.py [--quick]`.

1. Start-up overhead: the seconds to start a local cluster of 1 and 2
   workers and get a first trivial task back, and to stop it (what
   `perft --workers N` and `analyze` pay once a run).
2. Perft throughput (nodes/s) in this process, then on 1 and 2 workers
   (start-up not included), with the same total each time (exit status 1
   otherwise).
3. Analysis throughput (games/minute): the same seeded self-play games in
   this process, then on 1 and 2 workers.
4. A markdown table of every row, ready to paste into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import variantkit
from variantkit.analysis.cluster import Cluster
from variantkit.analysis.payload import variant_text
from variantkit.analysis.perft import distributed_perft
from variantkit.analysis.tournament import Settings, play_game, tournament

WORKERS = (1, 2)


def _noop(shared: str) -> int:
    return len(shared)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller perft and fewer games (about a minute)")
    args = parser.parse_args()
    perft_case = ("chess", 4) if args.quick else ("chess", 5)
    games = 4 if args.quick else 12
    settings = Settings(games=games, depth=2, random_plies=4, max_plies=200, seed=1)
    analysis_variant = "losalamos"
    rows: list[tuple[str, str, str, str]] = []

    name, depth = perft_case
    game = variantkit.load(name).new_game()
    start = time.perf_counter()
    expected = variantkit.perft(game, depth)
    alone = time.perf_counter() - start
    rows.append((f"perft {name} {depth}", "this process", f"{alone:.2f}",
                 f"{expected / alone:,.0f} nodes/s"))

    variant = variantkit.load(analysis_variant)
    text = variant_text(variant)
    start = time.perf_counter()
    for index in range(games):
        play_game(text, index, settings)
    alone_games = time.perf_counter() - start
    rows.append((f"analyze {variant.name}, {games} games depth 2", "this process",
                 f"{alone_games:.2f}", f"{games * 60 / alone_games:.1f} games/min"))

    failed = False
    for workers in WORKERS:
        start = time.perf_counter()
        with Cluster(None, workers) as cluster:
            list(cluster.run(_noop, "x", [()]))
            ready = time.perf_counter() - start
            rows.append(("start-up", f"{workers} worker(s)", f"{ready:.2f}",
                         "local cluster up, first task back"))

            start = time.perf_counter()
            total = sum(distributed_perft(game, depth, cluster).values())
            seconds = time.perf_counter() - start
            failed |= total != expected
            rows.append((f"perft {name} {depth}", f"{workers} worker(s)", f"{seconds:.2f}",
                         f"{total / seconds:,.0f} nodes/s, {alone / seconds:.2f}x"))

            start = time.perf_counter()
            played = list(tournament(variant, settings, cluster))
            seconds = time.perf_counter() - start
            rows.append((f"analyze {variant.name}, {len(played)} games depth 2",
                         f"{workers} worker(s)", f"{seconds:.2f}",
                         f"{games * 60 / seconds:.1f} games/min, "
                         f"{alone_games / seconds:.2f}x"))
            start = time.perf_counter()
        rows.append(("shut-down", f"{workers} worker(s)",
                     f"{time.perf_counter() - start:.2f}", ""))

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} CPUs, {platform.system()} {platform.machine()}, "
          f"CPython {platform.python_version()}, load average {load:.1f}\n")
    print("| Case | Where | Seconds | Throughput |")
    print("|---|---|--:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if failed:
        print("perft totals differ between the cluster and this process", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
