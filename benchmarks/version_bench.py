"""The built-in engine against an earlier version of itself, on boards no
other engine plays (Diplomat, Strato, Trice and the example Gliński file by
default): progress where there is no outside opponent to measure it by.

    python benchmarks/version_bench.py REV [--variants V ...] [--games N]
                                           [--movetime S] [--opening-plies N]
                                           [--max-plies N] [--grace S] [--seed N]

REV (a commit, tag or branch) is checked out into a temporary git worktree.
Both versions play through UCI (`python -m variantkit uci`), each in its own
process on the pure-Python build, so that neither gains from a compiled
build the other lacks.  Prints each match's games, score and Elo difference
with its 95% interval, the current version first.  A match of a few games
tells little: `--seed` gives other random openings, so that more matches
add up to more games rather than replay the same ones.
"""

from __future__ import annotations

import argparse
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import variantkit
from variantkit.analysis.match import Score, Settings, match, player_for, table
from variantkit.loader import examples_dir

REPOSITORY = Path(__file__).resolve().parent.parent
# A variant from a file reaches both engines through UCI's VariantPath.
OWN_BOARDS = ["diplomat", "strato", "trice", str(examples_dir() / "glinski.yaml")]


def uci_script(folder: Path, name: str, source: Path) -> Path:
    """An executable that starts the UCI engine of the sources in `source`
    (from `folder`: Python looks in the current directory first)."""
    script = folder / name
    script.write_text(
        "#!/bin/sh\n"
        f"cd '{folder}'\n"
        f"export PYTHONPATH='{source}' VARIANTKIT_PURE=1\n"
        f"exec '{sys.executable}' -W ignore -m variantkit uci\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the earlier version: a commit, tag or branch")
    parser.add_argument("--variants", nargs="+", default=OWN_BOARDS)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=float, default=0.5)
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=300,
                        help="a game still going after this many plies is a draw")
    # A new process loads its variant on the first move: the grace keeps
    # the figures about play, not about start-up.
    parser.add_argument("--grace", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1, help="the seed of the random openings")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="variantkit-versions-") as scratch:
        folder = Path(scratch)
        old = folder / "old"
        subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "add", "--detach",
                        str(old), args.rev], check=True, capture_output=True)
        try:
            scripts = (uci_script(folder, "current.sh", REPOSITORY),
                       uci_script(folder, "earlier.sh", old))
            settings = Settings(games=args.games, movetime=args.movetime,
                                opening_plies=args.opening_plies, seed=args.seed, grace=args.grace,
                                max_plies=args.max_plies)
            for source in args.variants:
                play(source, scripts, settings, args.rev)
        finally:
            subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "remove", "--force",
                            str(old)], check=False, capture_output=True)


def play(source: str, scripts: tuple[Path, Path], settings: Settings, rev: str) -> None:
    """One match of `settings.games` games of the variant named or read
    from the file `source`, printed as it goes."""
    players = (player_for(f"uci:{scripts[0]}"), player_for(f"uci:{scripts[1]}"))
    names = ("current", rev)
    score, start = Score(), time.perf_counter()
    variant = variantkit.load(source)
    name = variant.name
    try:
        for result in match(variant, players, settings):
            score.add(result.score(0))
            print(f"{name} game {result.index + 1}: {names[result.white]} - "
                  f"{names[1 - result.white]} {result.token} ({result.reason}, "
                  f"{result.game.plies} plies)", flush=True)
    finally:
        for player in players:
            player.close()
    print(table(names, score))
    print(f"{settings.games} games of {name} at {settings.movetime:g} s a move "
          f"in {time.perf_counter() - start:.0f} s\n", flush=True)


if __name__ == "__main__":
    main()
