"""Commands that put the engine behind the GUI protocols, and the match
referee: uci, xboard, usi, match.

    variantkit uci | xboard | usi
    variantkit match VARIANT ENGINE ENGINE [--games N] [--movetime S | --tc BASE+INC]
                     [--opening-plies K] [--seed S] [--max-plies P] [--grace S] [--pgn FILE]

An ENGINE is `builtin` (`builtin:DEPTH` for a fixed depth), `uci:PATH`,
`xboard:PATH` or `usi:PATH` (PATH may carry arguments, quoted as a shell
would).
"""

from __future__ import annotations

import click

from variantkit.cli.common import (
    FiniteFloat,
    check_output,
    cli,
    fail,
    input_files,
    load_variant,
    write_output,
)

MAX_GAMES = 10_000
MAX_SECONDS = 86_400.0


@cli.command()
def uci() -> None:
    """Speak UCI on standard input and output (any variant: UCI_Variant, VariantPath)."""
    from variantkit.protocols.uci import serve
    serve()


@cli.command()
def xboard() -> None:
    """Speak CECP v2 (xboard/WinBoard) on standard input and output."""
    from variantkit.protocols.xboard import serve
    serve()


@cli.command()
def usi() -> None:
    """Speak USI (shogi GUIs: SFEN positions, 7g7f moves) on standard input and output."""
    from variantkit.protocols.uci import serve
    from variantkit.protocols.usi import UsiDialect
    serve(UsiDialect())


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
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=2, show_default=True)
@click.option("--movetime", type=FiniteFloat(0, MAX_SECONDS, min_open=True), default=None,
              help="Seconds a move [default: 0.2 without --tc].")
@click.option("--tc", default=None, metavar="BASE+INC",
              help="A game clock: BASE seconds, INC more after each move.")
@click.option("--opening-plies", type=click.IntRange(0, 40), default=0, show_default=True,
              help="Random plies (from --seed) before the engines play; each opening "
                   "is played once with each colour.")
@click.option("--seed", type=click.IntRange(0, 2**32), default=0, show_default=True)
@click.option("--max-plies", type=click.IntRange(1, 5000), default=300, show_default=True,
              help="A game still going after this many plies is a draw.")
@click.option("--grace", type=FiniteFloat(0, 60), default=0.5, show_default=True,
              help="Seconds past a move's time before its flag falls.")
@click.option("--pgn", "pgn_path", default=None, metavar="FILE",
              help="Write the games to FILE as PGN.")
def match(variant: str, first: str, second: str, games: int, movetime: float | None,
          tc: str | None, opening_plies: int, seed: int, max_plies: int, grace: float,
          pgn_path: str | None) -> None:
    """Play a match between two engines, refereed by variantkit's rules."""
    from variantkit.analysis.match import Score, Settings, pgn, player_for, table
    from variantkit.analysis.match import match as play
    from variantkit.protocols.driver import EngineFailure

    if movetime is not None and tc is not None:
        fail("give --movetime or --tc, not both")
    chosen = load_variant(variant)
    if pgn_path:
        check_output(pgn_path, input_files(chosen), "w")
    base, increment = time_control(tc) if tc else (60.0, 0.0)
    settings = Settings(games=games, movetime=None if tc else (movetime or 0.2), base=base,
                        increment=increment, opening_plies=opening_plies, seed=seed,
                        max_plies=max_plies, grace=grace)
    players = []
    score, texts, failure = Score(), [], None
    try:
        for spec in (first, second):
            players.append(player_for(spec))
        pair = (players[0], players[1])
        names = (pair[0].name, pair[1].name)
        for result in play(chosen, pair, settings):
            score.add(result.score(0))
            texts.append(pgn(chosen, result, names))
            click.echo(f"game {result.index + 1}: {names[result.white]} - "
                       f"{names[1 - result.white]} {result.token} ({result.reason})")
    except EngineFailure as exc:
        failure = str(exc)
    finally:
        for player in players:
            player.close()
    if score.games:  # the games played before a failure count too
        click.echo(table(names, score))
    if pgn_path and texts:
        write_output(pgn_path, "\n".join(texts))
    if failure:
        fail(failure)
