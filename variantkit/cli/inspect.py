"""Commands that look at variants and positions: list, setup, validate,
perft, moves, show.

    variantkit list [TEXT] [--board BOARD]   (bundled variants, and the examples of a checkout)
    variantkit setup VARIANT NUMBER
    variantkit validate FILE... [--format json]
    variantkit perft VARIANT DEPTH [--fen F] [--moves M...] [--divide]
        [--workers N] [--cluster ADDRESS]
    variantkit moves VARIANT [--fen F] [--moves M...] [--count]
    variantkit show VARIANT [--fen F] [--moves M...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import click

import variantkit
from variantkit import loader
from variantkit.board import BoardDeclaration
from variantkit.board.build import build_board
from variantkit.cli.analyze import cluster_options, perft_on_cluster
from variantkit.cli.common import (
    EXIT_ERROR,
    EXIT_UNREADABLE,
    cli,
    fail,
    format_problem,
    game_for,
    is_unreadable,
    load_variant,
    position_options,
    problem_record,
    use_color,
    whole_number,
)
from variantkit.cli.play import pair_for
from variantkit.drawing.terminal import board_text
from variantkit.errors import VariantError
from variantkit.game import Game, depth_below
from variantkit.limits import MAX_PERFT_DEPTH
from variantkit.rulebook.look import PIECE_SETS


@cli.command("list")
@click.argument("text", required=False)
@click.option("--board", "board_filter", metavar="BOARD",
              help="Only variants on this board, as the group headings write it (8x8, 10x10).")
def list_command(text: str | None, board_filter: str | None) -> None:
    """List the bundled variants, and the example files of a source checkout,
    grouped by board; TEXT keeps those whose name or description contains it."""
    rows = [(name, name) for name in variantkit.variants()]
    examples = examples_dir()
    found = [] if examples is None else sorted(examples.glob("*.yaml"))
    rows += [(_shown(path), str(path)) for path in found]
    groups: dict[str, list[tuple[str, str]]] = {}
    for label, source in rows:
        # The file is read and checked against the schema, not compiled: a
        # listing needs its board and description, and compiling every
        # bundled game took seconds (`validate` finds what compiling finds).
        try:
            data = loader.load_document(source).data
            board, description = board_label(data["board"]), data.get("description", "")
        except VariantError:
            board, description = "?", "(does not load: run `variantkit validate`)"
        if text and text.lower() not in f"{label} {description}".lower():
            continue
        if board_filter and board_filter != board:
            continue
        groups.setdefault(board, []).append((label, description))
    if not groups:
        fail("no bundled variant or example matches")
    width = max(len(label) for group in groups.values() for label, _ in group)
    color = use_color()
    for board in sorted(groups, key=lambda b: (-len(groups[b]), b)):
        heading = f"{board} ({len(groups[board])})"
        click.echo(click.style(heading, bold=True) if color else heading)
        for label, description in groups[board]:
            shown = click.style(label.ljust(width), bold=True) if color else label.ljust(width)
            click.echo(f"  {shown}  {description}".rstrip())
    footer = (f"Examples load by path: variantkit show {_shown(found[0])}" if found else
              "More games written in YAML are in the examples/ folder of the source "
              "repository; load them by path.")
    click.echo(f"\n{footer}")


def board_label(board: BoardDeclaration) -> str:
    """A board (the `board:` of a checked file) in a few characters: `8x8`,
    `8x8x3`, `polar 43`, `hex 91`."""
    if "grid" in board:
        grid = board["grid"]
        planes = grid.get("planes", 1)
        return f"{grid['files']}x{grid['ranks']}" + (f"x{planes}" if planes > 1 else "")
    topology = next((key for key in board if key != "regions"), "board")
    return f"{topology} {build_board(board).size}"


def examples_dir() -> Path | None:
    """The folder of the example variant files (shipped in the package, or
    beside it in a source checkout), if there is one."""
    folder = loader.examples_dir()
    return folder if folder.is_dir() and any(folder.glob("*.yaml")) else None


def _shown(path: Path) -> str:
    """A path as a user would type it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


@cli.command()
@click.argument("variant_name", metavar="VARIANT")
@click.argument("number", type=int)
def setup(variant_name: str, number: int) -> None:
    """Print the start position numbered NUMBER of a variant with numbered
    setups (fischerandom 518 is chess's)."""
    try:
        click.echo(load_variant(variant_name).numbered_setup(number))
    except ValueError as exc:
        fail(str(exc))


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="How to print the problems found.")
def validate(files: tuple[str, ...], output: str) -> None:
    """Check variant files; exit 1 on any error, 2 when a file cannot be read."""
    records: list[dict[str, Any]] = []
    code = 0
    for file in files:
        try:
            problems = variantkit.load(file).problems  # warnings only
            failed = False
        except VariantError as exc:
            problems, failed = exc.problems, True
        if failed:
            code = max(code, EXIT_UNREADABLE if is_unreadable(problems) else EXIT_ERROR)
        if output == "json":
            records.extend(problem_record(p) for p in problems)
            continue
        for problem in problems:
            click.echo(format_problem(problem))
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
@position_options
@click.option("--divide", is_flag=True, help="Also print the count below each legal move.")
@cluster_options
def perft(variant: str, depth: str, fen: str | None, moves: tuple[str, ...],
          divide: bool, workers: int | None, address: str | None,
          worker_wait: float) -> None:
    """Count the move sequences DEPTH plies deep from a position (on a
    cluster with --workers or --cluster); where a turn has several moves,
    DEPTH whole turns."""
    plies = whole_number(depth, "depth", 1, MAX_PERFT_DEPTH)
    game = game_for(variant, fen, moves)
    if workers or address is not None:
        counts = perft_on_cluster(game, plies, workers, address, worker_wait)
    else:
        counts = perft_by_move(game, plies)
    if divide:
        for move, count in sorted(counts.items()):
            click.echo(f"{move}: {count}")
    click.echo(f"Nodes searched: {sum(counts.values())}")


def perft_by_move(game: Game, plies: int) -> dict[str, int]:
    """The perft count below each legal move (by move string), with a
    progress bar on stderr when it is a terminal; nothing else is printed,
    so that `Nodes searched: N` stays the last line of the output."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )
    legal = game.legal_moves()
    turns = game.position.rules.turns.any   # plies are whole turns (`count_turns`)
    if plies == 1 and not turns:
        return {str(move): 1 for move in legal}
    counts: dict[str, int] = {}
    with Progress(TextColumn("perft {task.description}"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True,
                  disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task(f"{plies}", total=len(legal))
        for move in legal:
            progress.update(task, description=f"{plies}: {move}")
            # (a move that leaves its turn going on counts below it the
            # same number of turns)
            below = depth_below(game, (str(move),), plies)
            game.push(move)
            try:
                counts[str(move)] = variantkit.perft(game, below)
            finally:
                game.pop()
            progress.advance(task)
    return counts


@cli.command("moves")
@click.argument("variant")
@position_options
@click.option("--count", is_flag=True, help="Print only the number of legal moves.")
def moves_command(variant: str, fen: str | None, moves: tuple[str, ...], count: bool) -> None:
    """Print the legal moves of a position, sorted, on one line."""
    legal = sorted(str(m) for m in game_for(variant, fen, moves).legal_moves())
    click.echo(str(len(legal)) if count else " ".join(legal))


@cli.command()
@click.argument("variant")
@position_options
@click.option("--pieces", type=click.Choice(PIECE_SETS), default=None,
              help="Write the characters the variant's look gives its pieces (traditional) "
                   "or their letters (international); by default the characters when "
                   "writing to a terminal that shows them.")
def show(variant: str, fen: str | None, moves: tuple[str, ...], pieces: str | None) -> None:
    """Draw a position, with the side to move and its position string; a
    game on two boards as both boards (--fen "A | B", --moves "A:e4")."""
    pair = pair_for(variant, fen, moves)
    if pair is not None:
        click.echo(pair.text(color=use_color()), nl=False)
        return
    game = game_for(variant, fen, moves)
    if pieces is None:
        pieces = "traditional" if _shows_characters(sys.stdout) else "international"
    click.echo(board_text(game, color=use_color(), pieces=pieces), nl=False)


def _shows_characters(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that can write any character (UTF-8)."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return stream.isatty() and encoding == "utf8"


