"""The command line: list, validate, count (perft), list moves and show positions.

    variantkit list
    variantkit validate FILE... [--format json]
    variantkit perft VARIANT DEPTH [--fen F] [--moves M...] [--divide]
    variantkit moves VARIANT [--fen F] [--moves M...] [--count]
    variantkit show VARIANT [--fen F] [--moves M...]

VARIANT is a bundled variant name or a path to a variant file.  Mistakes are
reported as `error: ...` on stderr with exit status 1 (2 when a file cannot
be read); a variant file's problems are shown as `file:line:col: ...` lines
with the offending source line.  This module only parses arguments and
prints: the work is done by the library.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

import variantkit
from variantkit.display import board_text
from variantkit.errors import IllegalMoveError, InvalidFenError, Problem, VariantError
from variantkit.game import Game
from variantkit.variant import Variant

# Loader rules meaning "the file itself could not be read".
UNREADABLE = frozenset({"file-not-found", "file-unreadable"})
EXIT_ERROR, EXIT_UNREADABLE = 1, 2


def _use_color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def _fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


# --- variant file problems ------------------------------------------------------


def _source_line(file: str | None, line: int | None, cache: dict[str, list[str]]) -> str | None:
    """Line `line` (1-based) of `file`, or None when it cannot be read."""
    if file is None or line is None:
        return None
    if file not in cache:
        try:
            cache[file] = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            cache[file] = []
    lines = cache[file]
    return lines[line - 1] if 0 < line <= len(lines) else None


def format_problem(problem: Problem, cache: dict[str, list[str]] | None = None) -> str:
    """`file:line:col: [error] message (rule)`, then the source line and a caret
    under the column when the location is known."""
    text = str(problem)
    source = _source_line(problem.file, problem.line, {} if cache is None else cache)
    if source is None:
        return text
    text += f"\n    {source}"
    if problem.column is not None:
        # Keep tabs so that the caret lines up however the terminal draws them.
        pad = "".join(ch if ch == "\t" else " " for ch in source[:problem.column - 1])
        text += f"\n    {pad}^"
    return text


def _problem_record(problem: Problem) -> dict[str, Any]:
    return {"file": problem.file, "line": problem.line, "column": problem.column,
            "severity": problem.severity, "rule": problem.rule, "message": problem.message}


def _is_unreadable(problems: list[Problem]) -> bool:
    return any(p.rule in UNREADABLE for p in problems)


def _load(name: str) -> Variant:
    """Load a variant for a command, or exit with its problems."""
    try:
        return variantkit.load(name)
    except VariantError as exc:
        problems = exc.problems
    if _is_unreadable(problems):
        _fail("\n".join(p.message for p in problems), EXIT_UNREADABLE)
    cache: dict[str, list[str]] = {}
    for problem in problems:
        click.echo(format_problem(problem, cache), err=True)
    sys.exit(EXIT_ERROR)


def _game(variant_name: str, fen: str | None, moves: tuple[str, ...]) -> Game:
    """The position a command works on: the variant's start or `fen`, then `moves`."""
    variant = _load(variant_name)
    try:
        game = variant.new_game(fen)
    except InvalidFenError as exc:
        _fail(f"bad position string: {exc}")
    for text in moves:
        for move in text.split():
            try:
                game.push(move)
            except IllegalMoveError as exc:
                _fail(str(exc))
    return game


def _position_options(command: Any) -> Any:
    """--fen and --moves, shared by the commands that set up a position."""
    command = click.option(
        "--moves", "moves", multiple=True, metavar="MOVES",
        help="Moves to play first; repeat the option or give several in one string "
             "(--moves 'e2e4 e7e5').")(command)
    command = click.option(
        "--fen", default=None, metavar="FEN",
        help="Start from this position instead of the variant's setup.")(command)
    return command


# --- commands ---------------------------------------------------------------------


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(variantkit.__version__, prog_name="variantkit")
def cli() -> None:
    """Chess variants as YAML files, compiled into move generators."""


@cli.command("list")
def list_command() -> None:
    """List the bundled variants."""
    names = variantkit.variants()
    descriptions = {}
    for name in names:
        try:
            descriptions[name] = variantkit.load(name).description
        except VariantError:
            descriptions[name] = "(does not load: run `variantkit validate`)"
    if _use_color():
        from rich.console import Console
        from rich.table import Table
        table = Table("variant", "description", box=None, header_style="bold")
        for name in names:
            table.add_row(f"[bold]{name}[/]", descriptions[name])
        Console().print(table)
        return
    width = max((len(n) for n in names), default=0)
    for name in names:
        click.echo(f"{name.ljust(width)}  {descriptions[name]}".rstrip())


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the problems found.")
def validate(files: tuple[str, ...], output: str) -> None:
    """Check variant files; exit 1 on any error, 2 when a file cannot be read."""
    records: list[dict[str, Any]] = []
    cache: dict[str, list[str]] = {}
    code = 0
    for file in files:
        try:
            problems = variantkit.load(file).problems  # warnings only
            failed = False
        except VariantError as exc:
            problems, failed = exc.problems, True
        if failed:
            code = max(code, EXIT_UNREADABLE if _is_unreadable(problems) else EXIT_ERROR)
        if output == "json":
            records.extend(_problem_record(p) for p in problems)
            continue
        for problem in problems:
            click.echo(format_problem(problem, cache))
        if not failed:
            click.echo(f"{file}: ok")
    if output == "json":
        click.echo(json.dumps(records, indent=2))
    sys.exit(code)


# Unknown options pass through as arguments so that a depth of `-1` gets the
# depth message rather than "no such option".
@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("variant")
@click.argument("depth")
@_position_options
@click.option("--divide", is_flag=True, help="Also print the count below each legal move.")
def perft(variant: str, depth: str, fen: str | None, moves: tuple[str, ...],
          divide: bool) -> None:
    """Count the move sequences DEPTH plies deep from a position."""
    if not depth.isdigit() or int(depth) < 1:
        _fail(f"depth must be a whole number >= 1, not '{depth}'")
    plies = int(depth)
    game = _game(variant, fen, moves)
    if not divide:
        total = variantkit.perft(game, plies)
    else:
        total = 0
        for move in sorted(game.legal_moves(), key=str):
            game.push(move)
            count = variantkit.perft(game, plies - 1)
            game.pop()
            total += count
            click.echo(f"{move}: {count}")
    click.echo(f"Nodes searched: {total}")


@cli.command("moves")
@click.argument("variant")
@_position_options
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves_command(variant: str, fen: str | None, moves: tuple[str, ...], count: bool) -> None:
    """Print the legal moves of a position, sorted, on one line."""
    legal = sorted(str(m) for m in _game(variant, fen, moves).legal_moves())
    click.echo(str(len(legal)) if count else " ".join(legal))


@cli.command()
@click.argument("variant")
@_position_options
def show(variant: str, fen: str | None, moves: tuple[str, ...]) -> None:
    """Draw a position, with the side to move and its position string."""
    game = _game(variant, fen, moves)
    click.echo(board_text(game, color=_use_color()), nl=False)


def main() -> None:
    """The `variantkit` program.

    A bug must not greet users with a traceback: it is reported in one line
    (set VARIANTKIT_DEBUG=1 to see the traceback).
    """
    try:
        cli(prog_name="variantkit")
    except Exception as exc:
        if os.environ.get("VARIANTKIT_DEBUG"):
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} "
              "(a bug in variantkit; VARIANTKIT_DEBUG=1 shows the traceback)")
