"""Commands that put the engine behind the GUI protocols, and the match
referee: uci, xboard, usi, match.

    variantkit uci | xboard | usi
    variantkit match VARIANT ENGINE ENGINE [--games N] [--movetime S | --tc BASE+INC]
                     [--opening-plies K] [--seed S] [--max-plies P] [--grace S]
                     [--adjudicate claims|rules] [--engine-variant NAME] [--pgn FILE]

An ENGINE is `builtin` (`builtin:DEPTH` for a fixed depth), `uci:PATH`,
`xboard:PATH` or `usi:PATH` (PATH may carry arguments, quoted as a shell
would).

A protocol session exits with 0 on `quit`, at the end of its input and when
the GUI closes its output; with 1, and a line on standard error, when its
output fails otherwise (a full disk).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import click

from variantkit.cli.common import (
    EXIT_ERROR,
    FiniteFloat,
    check_output,
    cli,
    fail,
    input_files,
    load_variant,
    write_output,
)
from variantkit.cli.options import games_option, max_plies_option, pgn_option, seed_option

MAX_SECONDS = 86_400.0


@cli.command()
def uci() -> None:
    """Speak UCI on standard input and output (any variant: UCI_Variant, VariantPath)."""
    from variantkit.protocols import serve
    serve("uci")


@cli.command()
def xboard() -> None:
    """Speak CECP v2 (xboard/WinBoard) on standard input and output."""
    from variantkit.protocols import serve
    serve("xboard")


@cli.command()
def usi() -> None:
    """Speak USI (shogi GUIs: SFEN positions, 7g7f moves) on standard input and output."""
    from variantkit.protocols import serve
    serve("usi")


def time_control(text: str) -> tuple[float, float]:
    """`BASE+INC` (seconds) as numbers, or exit with a message."""
    base, _, increment = text.partition("+")
    try:
        numbers = float(base), float(increment or 0)
    except ValueError:
        fail(f"--tc must be BASE+INC in seconds (60+0.5), not {text[:40]!r}")
    if not all(0 <= n <= MAX_SECONDS for n in numbers) or numbers[0] <= 0:
        fail(f"--tc must have a base above 0 and both at most {MAX_SECONDS:g} s")
    return numbers


@cli.command()
@click.argument("variant")
@click.argument("first")
@click.argument("second")
@games_option(2)
@click.option("--movetime", type=FiniteFloat(0, MAX_SECONDS, min_open=True), default=None,
              help="Seconds a move [default: 0.2 without --tc].")
@click.option("--tc", default=None, metavar="BASE+INC",
              help="A game clock: BASE seconds, INC more after each move.")
@click.option("--opening-plies", type=click.IntRange(0, 40), default=0, show_default=True,
              help="Random plies (from --seed) before the engines play; each opening "
                   "is played once with each colour.")
@seed_option
@max_plies_option
@click.option("--grace", type=FiniteFloat(0, 60), default=0.5, show_default=True,
              help="Seconds past a move's time before its flag falls.")
@click.option("--adjudicate", type=click.Choice(["claims", "rules"]), default="claims",
              show_default=True,
              help="A draw a side may claim (repetition, move rule) ends the game when a "
                   "side claims it (claims, as XBoard and cutechess), or at once (rules).")
@click.option("--engine-variant", default=None, metavar="NAME",
              help="Tell the external engines the game by NAME, a name they list it under "
                   "(Fairy-Max's king-of-the-hill for kingofthehill); the games are still "
                   "judged by VARIANT's rules.")
@pgn_option("Write the games to FILE as PGN.")
def match(variant: str, first: str, second: str, games: int, movetime: float | None,
          tc: str | None, opening_plies: int, seed: int, max_plies: int, grace: float,
          adjudicate: str, engine_variant: str | None, pgn_path: str | None) -> None:
    """Play a match between two engines, refereed by variantkit's rules."""
    from variantkit.analysis.match import Score, Settings, pgn, player_for, table
    from variantkit.analysis.match import match as play
    from variantkit.protocols.driver import EngineFailure, MatchRefused

    if movetime is not None and tc is not None:
        fail("give --movetime or --tc, not both")
    chosen = load_variant(variant)
    if pgn_path:
        check_output(pgn_path, input_files(chosen), "w")
    base, increment = time_control(tc) if tc else (60.0, 0.0)
    settings = Settings(games=games, movetime=None if tc else (movetime or 0.2), base=base,
                        increment=increment, opening_plies=opening_plies, seed=seed,
                        max_plies=max_plies, grace=grace, adjudicate=adjudicate)
    players = []
    score, texts, failure, status = Score(), [], None, EXIT_ERROR
    with ending_signals() as signals:
        try:
            for spec in (first, second):
                players.append(player_for(spec, engine_variant))
            pair = (players[0], players[1])
            names = (pair[0].name, pair[1].name)
            for result in play(chosen, pair, settings):
                score.add(result.score(0))
                texts.append(pgn(chosen, result, names))
                click.echo(f"game {result.index + 1}: {names[result.white]} - "
                           f"{names[1 - result.white]} {result.token} ({result.reason})")
        except (EngineFailure, MatchRefused) as exc:
            failure = str(exc)
        except Terminated as exc:
            signals.held.append(exc.number)
        finally:
            # The engines are ended and their files removed whatever stopped
            # the match; a signal that comes meanwhile waits until then.
            signals.holding = True
            for player in players:
                player.close()
    if signals.held and signals.held[0] == signal.SIGINT:
        raise KeyboardInterrupt
    if signals.held:
        failure = f"stopped ({signal.Signals(signals.held[0]).name}); the engines were closed"
        status = EXIT_SIGNALLED + signals.held[0]
    if score.games:  # the games played before a failure count too
        click.echo(table(names, score))
    if pgn_path and texts:
        write_output(pgn_path, "\n".join(texts))
    if failure:
        fail(failure, status)


class Terminated(Exception):
    """A signal asked the program to end (SIGTERM, SIGHUP)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


# The signals a match ends on as on Ctrl-C: its engines closed, its files removed.
ENDING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# The shell's status for a program ended by signal N is this plus N.
EXIT_SIGNALLED = 128


@dataclass
class Signals:
    """The ending signals that came while `holding` was set (cleaning up)."""

    holding: bool = False
    held: list[int] = field(default_factory=list)


@contextlib.contextmanager
def ending_signals() -> Iterator[Signals]:
    """While the block runs, Ctrl-C raises KeyboardInterrupt and SIGTERM or
    SIGHUP raise Terminated in it, so that what it started is cleaned up;
    once it sets `holding`, they are only added to `held`, for it to act on
    after its clean-up.  Signals reach only the main thread: elsewhere
    nothing changes."""
    signals = Signals()

    def ending(number: int, frame: object) -> None:
        if signals.holding:
            signals.held.append(number)
        elif number == signal.SIGINT:
            raise KeyboardInterrupt
        else:
            raise Terminated(number)

    if threading.current_thread() is not threading.main_thread():
        yield signals
        return
    previous = {number: signal.signal(number, ending) for number in ENDING_SIGNALS}
    try:
        yield signals
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
