"""The engine's instructions per node beside python-chess's leaf perft, by
callgrind: a comparison the machine's load does not move.

Each case searches one position to a fixed depth in a new process under
`valgrind --tool=callgrind`, with instructions collected inside
`Engine.search` only: loading the variant, the engine's tables and the
sliders' lazy tables (filled by a first search of depth 2 with another
engine) are left out, and Python's garbage collector is off.  python-chess
makes and unmakes every move of a perft of the chess start position to
depth 3 (`speed_bench.chess_leaves`), measured as the run to depth 3 less the
run to depth 0.  The last column is python-chess's instructions per node
over the engine's: the share of python-chess's leaf perft speed the engine
searches at, in instructions.  The compiled build only (the search is found
by its C name); for it, instructions are a measure of work more than of
time (C and the interpreter do not run as many instructions a second):

    .venv/bin/python benchmarks/callgrind_engine.py            # every case
    .venv/bin/python benchmarks/callgrind_engine.py chess trice
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from callgrind_perft import KIWIPETE

# (case, variant, position string or None for the start, depth).
CASES: list[tuple[str, str, str | None, int]] = [
    ("chess", "chess", None, 6),
    ("kiwipete", "chess", KIWIPETE, 4),
    ("trice", "trice", None, 5),
    ("diplomat", "diplomat", None, 5),
    ("crazyhouse", "crazyhouse", None, 5),
    ("shogi", "shogi", None, 5),
    ("xiangqi", "xiangqi", None, 5),
    ("capablanca", "capablanca", None, 5),
]
SEARCH = "CPyDef_search___Engine___search"
ENGINE = ("import gc, sys, variantkit\n"
          "from variantkit.engine.search import Engine\n"
          "variant = variantkit.load(sys.argv[1])\n"
          "game = variant.new_game(sys.argv[2] or None)\n"
          "Engine(variant).best_move(game, depth=2)\n"
          "engine = Engine(variant)\n"
          "gc.collect()\n"
          "gc.disable()\n"
          "move = engine.best_move(game, depth=int(sys.argv[3]))\n"
          "print(variantkit.BUILD, engine.info.nodes, move)\n")
PYTHON_CHESS = ("import gc, sys, chess\n"
                "from speed_bench import chess_leaves\n"
                "board = chess.Board()\n"
                "gc.collect()\n"
                "gc.disable()\n"
                "print('python-chess', chess_leaves(board, int(sys.argv[1])), '-')\n")
CHESS_DEPTH = 3
COLLECTED = re.compile(r"Collected : (\d+)")
HERE = os.path.dirname(os.path.abspath(__file__))


def instructions(argv: list[str], collect: str | None = None) -> tuple[int, str, int, str]:
    """Instructions of one run (inside `collect` only, if given), who ran
    (the build, or python-chess), the nodes and the move."""
    toggle = ["--collect-atstart=no", f"--toggle-collect={collect}"] if collect else []
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *toggle,
         sys.executable, "-c", *argv],
        capture_output=True, text=True, timeout=3600, check=True, cwd=HERE,
        env={**os.environ, "PYTHONHASHSEED": "0",
             "PYTHONPATH": os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")])})
    found = COLLECTED.search(done.stderr)
    assert found, done.stderr[-2000:]
    runner, nodes, move = done.stdout.split()
    return int(found.group(1)), runner, int(nodes), move


def main(argv: list[str]) -> int:
    total, _, chess_nodes, _ = instructions([PYTHON_CHESS, str(CHESS_DEPTH)])
    baseline = instructions([PYTHON_CHESS, "0"])[0]
    reference = (total - baseline) / chess_nodes
    print(f"python-chess, make/unmake every leaf of the start position to depth {CHESS_DEPTH}: "
          f"{reference:,.0f} instructions per node")
    print()
    print("| case | depth | nodes | move | instructions | per node | vs python-chess |")
    print("|---|--:|--:|---|--:|--:|--:|")
    for case, variant, fen, depth in [c for c in CASES if not argv or c[0] in argv]:
        counted, build, nodes, move = instructions([ENGINE, variant, fen or "", str(depth)],
                                                   SEARCH)
        if build != "compiled":
            print(f"{case}: the {build} build ran; this measures the compiled one", file=sys.stderr)
            return 1
        print(f"| {case} | {depth} | {nodes:,} | {move} | {counted:,} | {counted / nodes:,.0f} "
              f"| {reference * nodes / counted:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
