"""The match runner's figures: the built-in engine against Debian's
Fairy-Max (`make engines` installs it) in chess at 0.2 s a move, printing
the games, the score and the Elo difference with its 95% interval, and
which build played (the compiled engine is about three times as fast).

    python benchmarks/match_bench.py [--games N] [--movetime S] [--variant V]
                                     [--opponent xboard:/usr/games/fairymax] [--grace S]
"""

from __future__ import annotations

import argparse
import shutil
import time

import variantkit
from variantkit.analysis.match import BuiltinPlayer, Score, Settings, match, player_for, table
from variantkit.build import running_build


def main() -> None:
    found = shutil.which("fairymax", path="/usr/games:/usr/bin:/usr/local/bin")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--opponent", default=f"xboard:{found or 'fairymax'}")
    parser.add_argument("--opening-plies", type=int, default=2)
    # Fairy-Max, told of a clock of one move in 0.2 s, sometimes takes
    # 0.7 s: the grace keeps the figures about play, not about its flag.
    parser.add_argument("--grace", type=float, default=1.0)
    args = parser.parse_args()
    variant = variantkit.load(args.variant)
    settings = Settings(games=args.games, movetime=args.movetime,
                        opening_plies=args.opening_plies, seed=1, grace=args.grace)
    builtin, opponent = BuiltinPlayer(), player_for(args.opponent)
    names = (builtin.name, opponent.name)
    score, start = Score(), time.perf_counter()
    try:
        for result in match(variant, (builtin, opponent), settings):
            score.add(result.score(0))
            print(f"game {result.index + 1}: {names[result.white]} - "
                  f"{names[1 - result.white]} {result.token} ({result.reason}, "
                  f"{result.game.plies} plies)", flush=True)
    finally:
        opponent.close()
    print(table(names, score))
    print(f"{args.games} games of {args.variant} at {args.movetime:g} s a move "
          f"in {time.perf_counter() - start:.0f} s, {running_build()} build")


if __name__ == "__main__":
    main()
