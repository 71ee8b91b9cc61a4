"""The match runner's figures: the built-in engine against Debian's
Fairy-Max (`make engines` installs it) in chess at 0.2 s a move, printing
the games, the score and the Elo difference with its 95% interval, which
build played (the compiled engine is about three times as fast) and the
machine's load average.

    python benchmarks/match_bench.py [--games N] [--movetime S] [--variant V]
                                     [--opponent xboard:/usr/games/fairymax] [--grace S]
                                     [--opponent-depth D] [--seed N] [--engine-variant NAME]
                                     [--option NAME=VALUE ...] [--skill L | --elo E]

`--option NAME=VALUE` sets one of the opponent's own options (refused if
it has no such option); with Stockfish's `UCI_LimitStrength=true` and
`UCI_Elo=E` the script also prints the built-in engine's rating on
Stockfish's scale, E plus the Elo difference, with its interval:

    python benchmarks/match_bench.py --opponent uci:/usr/games/stockfish \
        --option UCI_LimitStrength=true --option UCI_Elo=1800

`--skill L` plays the built-in engine at skill level L (UCI's `Skill
Level`, 0 to 20), `--elo E` at the level its `UCI_Elo` E chooses.

`--opponent-depth D` limits a UCI opponent to D plies a move (the referee
only gives times): this script runs between the referee and the engine,
turning each `go` into `go depth D`, as in

    python benchmarks/match_bench.py --variant xiangqi \
        --opponent uci:/usr/games/fairy-stockfish --opponent-depth 4
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
from typing import IO

import variantkit
from variantkit.analysis.match import BuiltinPlayer, Score, Settings, match, player_for, table
from variantkit.compiled import running_build
from variantkit.protocols.driver import ExternalEngine
from variantkit.protocols.uci import skill_of_elo


def depth_proxy(depth: int, command: list[str]) -> None:
    """Run a UCI engine with this process's standard input and output,
    each `go` command turned into `go depth DEPTH`."""
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    assert engine.stdin is not None and engine.stdout is not None

    def forward(source: IO[str]) -> None:
        for line in source:
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=forward, args=(engine.stdout,), daemon=True).start()
    for line in sys.stdin:
        if line.split()[:1] == ["go"]:
            line = f"go depth {depth}\n"
        engine.stdin.write(line)
        engine.stdin.flush()
        if line.strip() == "quit":
            break
    engine.stdin.close()
    engine.wait(timeout=5)


def main() -> None:
    if sys.argv[1:2] == ["--depth-proxy"]:   # the referee runs this script as the opponent
        depth_proxy(int(sys.argv[2]), sys.argv[3:])
        return
    found = shutil.which("fairymax", path="/usr/games:/usr/bin:/usr/local/bin")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=float, default=0.2)
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--opponent", default=f"xboard:{found or 'fairymax'}")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="the seed of the random openings")
    # Fairy-Max, told of a clock of one move in 0.2 s, sometimes takes
    # 0.7 s: the grace keeps the figures about play, not about its flag.
    parser.add_argument("--grace", type=float, default=1.0)
    parser.add_argument("--opponent-depth", type=int, default=None)
    parser.add_argument("--engine-variant", default=None, metavar="NAME",
                        help="the name the opponent lists the game under, where it is "
                             "not variantkit's (Fairy-Max's king-of-the-hill)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="one of the opponent's options, set before the first game")
    strength = parser.add_mutually_exclusive_group()
    strength.add_argument("--skill", type=float, default=None,
                          help="the built-in engine's skill level (0 to 20)")
    strength.add_argument("--elo", type=int, default=None,
                          help="the built-in engine's UCI_Elo (its level by skill_of_elo)")
    args = parser.parse_args()
    options = [option.partition("=")[::2] for option in args.option]
    if any(not name or not value for name, value in options):
        parser.error("write --option NAME=VALUE")
    opponent_spec = args.opponent
    if args.opponent_depth is not None:
        protocol, _, command = opponent_spec.partition(":")
        if protocol != "uci":
            parser.error("--opponent-depth needs a uci: opponent")
        opponent_spec = "uci:" + shlex.join(
            [sys.executable, __file__, "--depth-proxy", str(args.opponent_depth),
             *shlex.split(command)])
    variant = variantkit.load(args.variant)
    settings = Settings(games=args.games, movetime=args.movetime,
                        opening_plies=args.opening_plies, seed=args.seed, grace=args.grace)
    skill = skill_of_elo(args.elo) if args.elo is not None else args.skill
    builtin, opponent = BuiltinPlayer(skill=skill), player_for(opponent_spec, args.engine_variant)
    if options and not isinstance(opponent, ExternalEngine):
        parser.error("--option needs an external opponent")
    for name, value in options:
        assert isinstance(opponent, ExternalEngine)
        opponent.set_option(name, value)
    set_options = dict(options)
    names = (builtin.name + (f" UCI_Elo {args.elo}" if args.elo is not None else ""),
             opponent.name + "".join(f" {name}={value}" for name, value in options))
    loads = [os.getloadavg()[0]]   # the 1-minute load average, after each game
    # On a loaded machine an engine's move may come past its time and
    # grace: the games decided on the board are counted apart too.
    score, on_board, start = Score(), Score(), time.perf_counter()
    try:
        for result in match(variant, (builtin, opponent), settings):
            score.add(result.score(0))
            if " lost on time " not in result.reason:
                on_board.add(result.score(0))
            loads.append(os.getloadavg()[0])
            print(f"game {result.index + 1}: {names[result.white]} - "
                  f"{names[1 - result.white]} {result.token} ({result.reason}, "
                  f"{result.game.plies} plies)", flush=True)
    finally:
        opponent.close()
    print(table(names, score))
    if on_board.games < score.games:
        elo, low, high = on_board.elo()
        print(f"without the {score.games - on_board.games} games lost on time: "
              f"{on_board.wins + on_board.draws / 2:g}/{on_board.games} "
              f"({on_board.wins}-{on_board.draws}-{on_board.losses}), "
              f"Elo {elo:+.0f} (95%: {low:+.0f} to {high:+.0f})")
    if set_options.get("UCI_LimitStrength", "").lower() == "true" and "UCI_Elo" in set_options:
        rating, elo = int(set_options["UCI_Elo"]), score.elo()
        print(f"on the opponent's UCI_Elo scale: {rating + elo[0]:.0f} "
              f"(95%: {rating + elo[1]:.0f} to {rating + elo[2]:.0f})")
    depth = f", the opponent at depth {args.opponent_depth}" if args.opponent_depth else ""
    print(f"{args.games} games of {args.variant} at {args.movetime:g} s a move{depth} "
          f"in {time.perf_counter() - start:.0f} s, {running_build()} build, "
          f"load average {sum(loads) / len(loads):.1f} (from {min(loads):.1f} to "
          f"{max(loads):.1f})")


if __name__ == "__main__":
    main()
