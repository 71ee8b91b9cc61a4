"""Load-time benchmark: the largest boards variantkit is meant to carry.

Run with `make bench` (after the perft benchmark) or
`python benchmarks/load_bench.py [--runs N]`.

For each file in benchmarks/boards/ (a 16x16 grid with a queen army, an 8x8x8
cube with Raumschach's pieces, a polar disk of 64 sectors and 8 rings) it
reports the time of `variantkit.load` (YAML, schema, board, every piece's
tables, the checks), best of N runs in fresh variants, as wall-clock and as
CPU time of the process, and the peak memory traced by tracemalloc during one
more load.  The machine is shared, so wall-clock time varies with other jobs;
CPU time does not.  Exit status 1 when a load takes more than LIMIT_SECONDS
of CPU time, the bound the README's limits section promises.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

import variantkit

BOARDS = Path(__file__).resolve().parent / "boards"
LIMIT_SECONDS = 2.0


def measure(path: Path, runs: int) -> tuple[float, float, int, int]:
    """(best wall seconds, best CPU seconds, peak traced bytes, cells) of
    loading `path`."""
    best = best_cpu = float("inf")
    cells = 0
    for _ in range(runs):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        variant = variantkit.load(path)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        cells = variant.board.size
    gc.collect()
    tracemalloc.start()
    variantkit.load(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, best_cpu, peak, cells


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per file (best kept)")
    args = parser.parse_args()
    print(f"| board | cells | load s (wall, best of {args.runs}) | load s (CPU) | peak memory |")
    print("| --- | --: | --: | --: | --: |")
    slow = []
    for path in sorted(BOARDS.glob("*.yaml")):
        seconds, cpu, peak, cells = measure(path, args.runs)
        print(f"| {path.stem} | {cells:,} | {seconds:.2f} | {cpu:.2f} | {peak / 2**20:.1f} MiB |")
        if cpu > LIMIT_SECONDS:
            slow.append(path.stem)
    if slow:
        print(f"slower than {LIMIT_SECONDS} s: {', '.join(slow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
