"""Calls per second of `variantkit.compat.pyffish` beside pyffish itself.

    python benchmarks/pyffish_bench.py [--variants V ...] [--plies N] [--seconds S]

A site calls pyffish statelessly: after each move it asks for the legal
moves, the position string and the move written, naming the start position
and every move played so far.  The games below are seeded random games of
`--plies` plies (as pyffish plays them), a new one after another; each
function is called at every ply of each game as a site would, with the
moves so far (`legal_moves`, `get_fen`), and for `get_san` the next move
written from the position reached.  Both libraries answer the same calls
for about `--seconds` seconds each, after one game to warm up (loading the
variant); the table gives calls per second and how many times slower the
module is.  The module keeps the last games (`GAMES_KEPT`), so a call with
one move more than the one before plays that one move; the "fresh" rows
name each position by its own string with no moves, so that no kept game
helps: the cost of reading a position string each call.  pyffish is
needed (`pip install pyffish`); it is not a dependency of variantkit.
A script run by hand, not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import variantkit
import variantkit.compat.pyffish as module

try:
    import pyffish
except ImportError:
    sys.exit("pyffish_bench needs pyffish: pip install pyffish")

VARIANTS = ["chess", "crazyhouse", "xiangqi", "shogi", "makruk", "capablanca"]


GAMES = 20   # games cycled through: more than the module keeps, so none is kept twice


def random_game(name: str, plies: int, seed: int) -> tuple[str, list[str]]:
    """A start position and a seeded random game from it, as pyffish plays it."""
    rng = random.Random(f"{name}:{seed}")
    start = pyffish.start_fen(name)
    moves: list[str] = []
    for _ in range(plies):
        legal = pyffish.legal_moves(name, start, moves)
        if not legal or pyffish.is_immediate_game_end(name, start, moves)[0]:
            break
        moves.append(rng.choice(sorted(legal)))
    return start, moves


def calls(sf: Any, kind: str, name: str, start: str,
          moves: list[str]) -> list[Callable[[], object]]:
    """One game's calls of one kind, in the order a site makes them."""
    out: list[Callable[[], object]] = []
    for ply in range(len(moves)):
        played = moves[:ply]
        if kind == "legal_moves":
            out.append(lambda p=played: sf.legal_moves(name, start, p))
        elif kind == "get_fen":
            out.append(lambda p=played: sf.get_fen(name, start, p))
        elif kind == "get_san":
            fen = pyffish.get_fen(name, start, played)
            out.append(lambda f=fen, m=moves[ply]: sf.get_san(name, f, m))
        else:  # fresh: a position string of its own each call
            fen = pyffish.get_fen(name, start, played)
            out.append(lambda f=fen: sf.legal_moves(name, f, []))
    return out


def rate(games: list[list[Callable[[], object]]], seconds: float) -> float:
    """Calls per second over the games' calls, the first game once to warm
    up, then the others in turn until `seconds` have passed."""
    for call in games[0]:
        call()
    done, began = 0, time.perf_counter()
    while True:
        for work in games[1:]:
            for call in work:
                call()
            done += len(work)
            elapsed = time.perf_counter() - began
            if elapsed >= seconds:
                return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=VARIANTS)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"variantkit {variantkit.__version__} ({variantkit.BUILD} build) against pyffish "
          f"{'.'.join(map(str, pyffish.version()))}; {args.plies}-ply random games, "
          f"about {args.seconds:g} s a figure")
    print()
    print("| variant | call | pyffish, calls/s | module, calls/s | module slower |")
    print("|---|---|--:|--:|--:|")
    for name in args.variants:
        games = [random_game(name, args.plies, args.seed + n) for n in range(GAMES)]
        for kind in ("legal_moves", "get_fen", "get_san", "fresh legal_moves"):
            theirs = rate([calls(pyffish, kind, name, *game) for game in games], args.seconds)
            ours = rate([calls(module, kind, name, *game) for game in games], args.seconds)
            print(f"| {name} | {kind} | {theirs:,.0f} | {ours:,.0f} | {theirs / ours:.1f}x |",
                  flush=True)


if __name__ == "__main__":
    main()
