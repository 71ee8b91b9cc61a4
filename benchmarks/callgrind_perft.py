"""Instruction counts of perft's last two plies, by callgrind.

Perft counts its last two plies in one call, `Position.count_legal_pairs`
(variantkit.game.perft); each case runs once under `valgrind
--tool=callgrind` with instructions collected inside that call only, so
loading the variant and the plies above are left out, and with Python's
garbage collector off once the variant is loaded, so that a collection
does not fall now in one run, now in another.  Callgrind counts
instructions: the machine's load does not move the figures (two runs of
one build agree to a few instructions in a million).  The compiled build
only: the call is found by its C name.  Run it with each build's python:

    .venv/bin/python benchmarks/callgrind_perft.py            # every case
    .venv/bin/python benchmarks/callgrind_perft.py chess xiangqi
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# (case, variant, position string or None for the start, depth).
CASES: list[tuple[str, str, str | None, int]] = [
    ("chess", "chess", None, 4),
    ("kiwipete", "chess", KIWIPETE, 3),
    ("capablanca", "capablanca", None, 3),
    ("xiangqi", "xiangqi", None, 3),
    ("shogi", "shogi", None, 3),
    ("crazyhouse", "crazyhouse", None, 4),
    ("janggi", "janggi", None, 3),
    ("makruk", "makruk", None, 4),
]
# The compiled `Position.count_legal_pairs`, as mypyc names it in C.
LAST_TWO_PLIES = "CPyDef_position___Position___count_legal_pairs"
CHILD = ("import gc, sys, variantkit\n"
         "game = variantkit.load(sys.argv[1]).new_game(sys.argv[2] or None)\n"
         "gc.collect()\n"
         "gc.disable()\n"
         "print(variantkit.BUILD, variantkit.perft(game, int(sys.argv[3])))\n")
COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(variant: str, fen: str | None, depth: int) -> tuple[int, str, int]:
    """Instructions of perft's last two plies to `depth`, the build that
    ran and the node count."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         "--collect-atstart=no", f"--toggle-collect={LAST_TWO_PLIES}",
         sys.executable, "-c", CHILD, variant, fen or "", str(depth)],
        capture_output=True, text=True, timeout=1800,
        env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    found = COLLECTED.search(done.stderr)
    assert found, done.stderr[-2000:]
    build, nodes = done.stdout.split()
    return int(found.group(1)), build, int(nodes)


def main(argv: list[str]) -> int:
    chosen = [case for case in CASES if not argv or case[0] in argv]
    print("| case | depth | nodes | instructions, last two plies |")
    print("|---|--:|--:|--:|")
    for case, variant, fen, depth in chosen:
        counted, build, nodes = instructions(variant, fen, depth)
        if build != "compiled":
            print(f"{case}: the {build} build ran; this measures the compiled one", file=sys.stderr)
            return 1
        print(f"| {case} | {depth} | {nodes:,} | {counted:,} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
