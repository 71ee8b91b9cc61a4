"""Perft beside python-chess in instructions, by callgrind: a comparison the
machine's load does not move.

Each side runs perft in a new process under `valgrind --tool=callgrind`,
once to the depth and once to depth 0 (the same process, loading and the
position made, no perft); the difference is what perft itself costs.  Both
run on CPython, so for the pure-Python build the ratio of instructions
stands close to the ratio of times; for the compiled build it is a
measure of work, not of speed.  Python's garbage collector is off once the
position is made, so that a collection does not fall now in one run, now
in another.  The build is the one the python running this script
installs (`VARIANTKIT_PURE=1` runs the pure one):

    VARIANTKIT_PURE=1 .venv/bin/python benchmarks/callgrind_pychess.py
    .venv/bin/python benchmarks/callgrind_pychess.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from callgrind_perft import KIWIPETE

# (case, position string or None for the start, depth).
CASES: list[tuple[str, str | None, int]] = [
    ("chess start", None, 3),
    ("Kiwipete", KIWIPETE, 2),
]
VARIANTKIT = ("import gc, sys, variantkit\n"
              "game = variantkit.load('chess').new_game(sys.argv[1] or None)\n"
              "gc.collect()\n"
              "gc.disable()\n"
              "print(variantkit.BUILD, variantkit.perft(game, int(sys.argv[2])))\n")
PYTHON_CHESS = ("import gc, sys, chess\n"
                "from perft_bench import chess_perft\n"
                "board = chess.Board(sys.argv[1] or chess.STARTING_FEN)\n"
                "gc.collect()\n"
                "gc.disable()\n"
                "print('python-chess', chess_perft(board, int(sys.argv[2])))\n")
COLLECTED = re.compile(r"Collected : (\d+)")
HERE = os.path.dirname(os.path.abspath(__file__))


def instructions(child: str, fen: str | None, depth: int) -> tuple[int, str, int]:
    """Instructions of one whole run, who ran (the build, or python-chess)
    and the node count."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", child, fen or "", str(depth)],
        capture_output=True, text=True, timeout=3600, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": HERE})
    found = COLLECTED.search(done.stderr)
    assert found, done.stderr[-2000:]
    runner, nodes = done.stdout.split()
    return int(found.group(1)), runner, int(nodes)


def perft_cost(child: str, fen: str | None, depth: int) -> tuple[int, str, int]:
    """Instructions of perft alone: the run to `depth` less the run to 0."""
    total, runner, nodes = instructions(child, fen, depth)
    baseline, _, _ = instructions(child, fen, 0)
    return total - baseline, runner, nodes


def main() -> int:
    print("| case | depth | nodes | build | variantkit instructions | python-chess instructions "
          "| python-chess / variantkit |")
    print("|---|--:|--:|---|--:|--:|--:|")
    for case, fen, depth in CASES:
        ours, build, nodes = perft_cost(VARIANTKIT, fen, depth)
        theirs, _, their_nodes = perft_cost(PYTHON_CHESS, fen, depth)
        if nodes != their_nodes:
            print(f"{case}: {nodes} nodes here, {their_nodes} in python-chess", file=sys.stderr)
            return 1
        print(f"| {case} | {depth} | {nodes:,} | {build} | {ours:,} | {theirs:,} "
              f"| {theirs / ours:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
