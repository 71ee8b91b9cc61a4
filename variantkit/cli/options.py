"""The options several commands share, each defined once: its name, its
limit and its meaning are the same wherever it is taken (`selfplay`,
`match`, `analyze`, `play`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from variantkit.cli.common import FiniteFloat
from variantkit.engine.search import MAX_DEPTH
from variantkit.limits import MAX_THINK_SECONDS

Decorator = Callable[[Any], Any]

# Plies a game may last.  A match sends engines the whole game in one
# protocol line (`position startpos moves ...`), which must fit the line
# bound of variantkit's own sessions (protocols.channel.MAX_LINE, 100,000
# characters): 5,000 moves of up to 20 characters do.
MAX_PLIES = 5_000
# Games one command may play.
MAX_GAMES = 1_000_000
# Random plies before the engines play, so that games differ.
MAX_RANDOM_PLIES = 1_000
# Seeds are taken as people write them; 2**32 - 1 is Python's and NumPy's
# common upper bound for a seed, and enough to tell runs apart.
MAX_SEED = 2**32 - 1


def max_plies_option(command: Any) -> Any:
    """`--max-plies`: where a game still going is stopped."""
    return click.option(
        "--max-plies", type=click.IntRange(1, MAX_PLIES), default=300, show_default=True,
        help="Stop a game still going after this many plies ('move limit').",
    )(command)


def seed_option(command: Any) -> Any:
    """`--seed`: the seed of the random opening plies."""
    return click.option(
        "--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
        help="Seed of the random opening plies.",
    )(command)


def random_plies_option(command: Any) -> Any:
    """`--random-plies`: random legal moves before the engines play."""
    return click.option(
        "--random-plies", type=click.IntRange(0, MAX_RANDOM_PLIES), default=4,
        show_default=True,
        help="Random legal moves at the start of each game, so that games differ.",
    )(command)


def games_option(default: int, what: str = "Number of games.") -> Decorator:
    """`--games`: how many games to play."""
    return click.option("--games", type=click.IntRange(1, MAX_GAMES), default=default,
                        show_default=True, help=what)


def depth_option(default: int | None, shown: int | None = None) -> Decorator:
    """`--depth`: the engine's search depth; `shown` names the default a
    `None` stands for."""
    help_text = "Engine search depth in plies" + (f"  [default: {shown}]." if shown else ".")
    return click.option("--depth", type=click.IntRange(1, MAX_DEPTH), default=default,
                        show_default=default is not None, help=help_text)


def think_time_option(what: str) -> Decorator:
    """`--time`: the engine's thinking time per move, in seconds."""
    return click.option("--time", "seconds",
                        type=FiniteFloat(0, MAX_THINK_SECONDS, min_open=True),
                        default=None, help=what)


def pgn_option(what: str) -> Decorator:
    """`--pgn FILE`: where the games go as PGN."""
    return click.option("--pgn", "pgn_path", default=None, metavar="FILE", help=what)
