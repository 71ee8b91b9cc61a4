"""What every command shares: the `cli` group, loading a variant or a
position for a command, and reporting mistakes without a traceback.

Mistakes are reported as `error: ...` on stderr with exit status 1 (2 when a
file cannot be read); a variant file's problems are shown as
`file:line:col: ...` lines with the offending source line and a caret.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

import variantkit
from variantkit.errors import IllegalMoveError, InvalidFenError, Problem, VariantError
from variantkit.game import Game
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


def source_line(file: str | None, line: int | None, cache: dict[str, list[str]]) -> str | None:
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
    source = source_line(problem.file, problem.line, {} if cache is None else cache)
    if source is None:
        return text
    text += f"\n    {source}"
    if problem.column is not None:
        # Keep tabs so that the caret lines up however the terminal draws them.
        pad = "".join(ch if ch == "\t" else " " for ch in source[:problem.column - 1])
        text += f"\n    {pad}^"
    return text


def problem_record(problem: Problem) -> dict[str, Any]:
    return {"file": problem.file, "line": problem.line, "column": problem.column,
            "severity": problem.severity, "rule": problem.rule, "message": problem.message}


def is_unreadable(problems: list[Problem]) -> bool:
    return any(p.rule in UNREADABLE for p in problems)


def check_writable(path: str | None) -> None:
    """Fail now, not after a long game, when `path` cannot be written."""
    if path is None:
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK) \
            or (target.exists() and not os.access(target, os.W_OK)):
        fail(f"cannot write {path}")


def write_output(path: str, text: str, mode: str = "w") -> None:
    """Write (mode "w"), append ("a") or create ("x") a text file, or fail
    with a message naming it."""
    try:
        with open(path, mode, encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        fail(f"{path} exists already: choose another name or -o FILE")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def load_variant(name: str) -> Variant:
    """Load a variant for a command, or exit with its problems."""
    try:
        return variantkit.load(name)
    except VariantError as exc:
        problems = exc.problems
    if is_unreadable(problems):
        fail("\n".join(p.message for p in problems), EXIT_UNREADABLE)
    cache: dict[str, list[str]] = {}
    for problem in problems:
        click.echo(format_problem(problem, cache), err=True)
    sys.exit(EXIT_ERROR)


def game_for(variant_name: str, fen: str | None, moves: tuple[str, ...]) -> Game:
    """The position a command works on: the variant's start or `fen`, then `moves`."""
    variant = load_variant(variant_name)
    try:
        game = variant.new_game(fen)
    except InvalidFenError as exc:
        fail(f"bad position string: {exc}")
    for text in moves:
        for move in text.split():
            try:
                game.push_san(move)
            except IllegalMoveError as exc:
                fail(str(exc))
    return game


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(variantkit.__version__, prog_name="variantkit")
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
        if os.environ.get("VARIANTKIT_DEBUG"):
            raise
        fail(f"internal error: {type(exc).__name__}: {exc} "
              "(a bug in variantkit; VARIANTKIT_DEBUG=1 shows the traceback)")
