"""What every command shares: the `cli` group, loading a variant or a
position for a command, and reporting mistakes without a traceback.

Mistakes are reported as `error: ...` on stderr with exit status 1 (2 when a
file cannot be read); a variant file's problems are shown as
`file:line:col: ...` lines with the offending source line and a caret.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click

import variantkit
from variantkit.cli import EXIT_INTERRUPTED, STOPPED
from variantkit.errors import IllegalMoveError, InvalidFenError, Problem, VariantError, quote
from variantkit.game import Game, VariantFace
from variantkit.variant import Variant

# Loader rules meaning "the file itself could not be read".
UNREADABLE = frozenset({"file-not-found", "file-unreadable"})
EXIT_ERROR, EXIT_UNREADABLE = 1, 2


def use_color() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


# --- variant file problems ------------------------------------------------------


# Characters of a source line shown under a problem; a longer line is cut
# around the column.
SOURCE_WIDTH = 100


def format_problem(problem: Problem) -> str:
    """`file:line:col: [error] message (rule)`, then the source line and a caret
    under the column when the loader recorded the line.  Files are never
    opened here: a message quotes only what the loader read."""
    text = str(problem)
    source = problem.source
    if source is None:
        return text
    column = problem.column
    if len(source) > SOURCE_WIDTH:
        start = max(0, min((column or 1) - 1 - SOURCE_WIDTH // 2, len(source) - SOURCE_WIDTH))
        source = source[start:start + SOURCE_WIDTH]
        column = None if column is None else column - start
    text += f"\n    {source}"
    if column is not None:
        # Keep tabs so that the caret lines up however the terminal draws them.
        pad = "".join(ch if ch == "\t" else " " for ch in source[:column - 1])
        text += f"\n    {pad}^"
    return text


def problem_record(problem: Problem) -> dict[str, Any]:
    return {"file": problem.file, "line": problem.line, "column": problem.column,
            "severity": problem.severity, "rule": problem.rule, "message": problem.message}


def is_unreadable(problems: list[Problem]) -> bool:
    return any(p.rule in UNREADABLE for p in problems)


# --- numbers and output files ------------------------------------------------------


class FiniteFloat(click.FloatRange):
    """A number in a range that is also finite: click's FloatRange lets
    `nan` through, since every comparison with it is false."""

    name = "finite number"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{quote(str(value))} is not a finite number", param, ctx)
        return number


def whole_number(text: str, what: str, low: int, high: int) -> int:
    """`text` as an int from `low` to `high`, or exit with a message (ASCII
    digits only, and never more of them than `high` has)."""
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(high))
            and low <= int(text) <= high):
        fail(f"{what} must be a whole number from {low} to {high}, not {quote(text)}")
    return int(text)


def input_files(variant: VariantFace) -> list[str]:
    """The files a variant was read from: the one named and its parents."""
    return list(variant.document.lines)


def check_output(path: str | None, inputs: list[str], mode: str) -> None:
    """Fail now, not after a long game, when `path` cannot be written in
    `mode` ("x": a new file, "w": replace, "a": append).

    The policy: never write to a file a command reads, never replace an
    existing file unless asked (--force), append only where the format holds
    many records (PGN).  Files that are not regular (a terminal, a pipe) are
    written as they are.
    """
    if path is None:
        return
    try:
        _check_writable(path, inputs, mode)
    except OSError as exc:  # a name too long for the file system, a loop of links, ...
        fail(f"cannot write {quote(path)}: {exc.strerror or exc}")


def _check_writable(path: str, inputs: list[str], mode: str) -> None:
    """check_output's tests; asking the file system about a hostile name may
    itself raise OSError (a name too long, a loop of symbolic links)."""
    target = Path(path)
    for name in inputs:
        try:
            if target.exists() and target.samefile(name):
                fail(f"{quote(path)} is the variant file being read: "
                     "choose another output file")
        except OSError:  # asked again below, where it fails the command
            continue
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK) \
            or (target.exists() and not os.access(target, os.W_OK)):
        fail(f"cannot write {quote(path)}")
    if mode == "x" and target.is_file():
        fail(f"{quote(path)} exists already: choose another name, or --force to "
             "replace it")


def write_output(path: str, text: str, mode: str = "w") -> None:
    """Write (mode "w"), append ("a") or create ("x") a text file, or fail
    with a message naming it."""
    try:
        with open(path, mode, encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        fail(f"{quote(path)} exists already: choose another name, or --force to replace it")
    except OSError as exc:
        fail(f"cannot write {quote(path)}: {exc.strerror or exc}")


def force_option(command: Any) -> Any:
    """--force: replace an existing output file."""
    return click.option("--force", is_flag=True,
                        help="Replace the output file if it exists.")(command)


def load_variant(name: str) -> Variant:
    """Load a variant for a command, or exit with its problems."""
    try:
        return variantkit.load(name)
    except VariantError as exc:
        problems = exc.problems
    if is_unreadable(problems):
        fail("\n".join(p.message for p in problems), EXIT_UNREADABLE)
    for problem in problems:
        click.echo(format_problem(problem), err=True)
    sys.exit(EXIT_ERROR)


def game_for(variant_name: str, fen: str | None, moves: tuple[str, ...]) -> Game:
    """The position a command works on: the variant's start or `fen`, then `moves`."""
    variant = load_variant(variant_name)
    try:
        game = variant.new_game(fen)
    except InvalidFenError as exc:
        fail(f"bad position string: {exc}")
    play_moves(game.push_san, moves)
    return game


def play_moves(push: Callable[[str], object], moves: tuple[str, ...]) -> None:
    """Each move of `moves` (an option's values, each holding one or more
    moves apart by spaces) played through `push`; an illegal one fails the
    command with its reason."""
    for text in moves:
        for move in text.split():
            try:
                push(move)
            except IllegalMoveError as exc:
                fail(str(exc))


def position_options(command: Any) -> Any:
    """--fen and --moves, shared by the commands that set up a position."""
    command = click.option(
        "--moves", "moves", multiple=True, metavar="MOVES",
        help="Moves to play first; repeat the option or give several in one string "
             "(--moves 'e2e4 e7e5').")(command)
    command = click.option(
        "--fen", default=None, metavar="FEN",
        help="Start from this position instead of the variant's setup.")(command)
    return command


class Program(click.Group):
    """The command group: Ctrl-C in a command that does not handle it ends
    the program as the commands that do handle it end it (exit status 130,
    one line), not with click's `Aborted!` and status 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            fail(STOPPED, EXIT_INTERRUPTED)


@click.group(cls=Program, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(variantkit.__version__, prog_name="variantkit",
                      message=f"%(prog)s, version %(version)s ({variantkit.BUILD} build)")
def cli() -> None:
    """Chess variants as YAML files, compiled into move generators."""


def main() -> None:
    """The `variantkit` program.

    A bug must not greet users with a traceback: it is reported in one line
    (set VARIANTKIT_DEBUG=1 to see the traceback).
    """
    try:
        cli(prog_name="variantkit")
    except Exception as exc:
        internal_error(exc)


def internal_error(exc: Exception) -> NoReturn:
    """Report a bug in one line and exit 1 (with VARIANTKIT_DEBUG=1,
    raise it: the traceback)."""
    if os.environ.get("VARIANTKIT_DEBUG"):
        raise exc
    fail(f"internal error: {type(exc).__name__}: {exc} "
         "(a bug in variantkit; VARIANTKIT_DEBUG=1 shows the traceback)")
